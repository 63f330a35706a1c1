/// The languages Tesseract should read, in order of preference: `eng+fra` is `["eng", "fra"]`.
public struct LanguageSet: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Tesseract language codes, each a `<code>.traineddata` file in the tessdata folder.
    public let codes: [String]

    /// English and French: the default, so that accents such as "Pæan" and "damnèd" survive.
    public static let englishAndFrench = LanguageSet(checkedCodes: ["eng", "fra"])

    /// Wraps codes already known to be valid.
    private init(checkedCodes: [String]) {
        codes = checkedCodes
    }

    /// Parses Tesseract's `+`-separated form, such as `"eng+fra"`.
    ///
    /// - Throws: `SnapPoemError.invalidLanguage` for an empty specification, an empty part
    ///   (`"eng+"`), a duplicate, characters a traineddata name cannot have, or `osd`
    ///   (Tesseract's orientation and script detection model, which reads no text: asked to
    ///   read with it, Tesseract returns garbage).
    public init(parsing specification: String) throws(SnapPoemError) {
        let parts = specification.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !specification.isEmpty else {
            throw .invalidLanguage(specification: specification, reason: "no language given")
        }
        for part in parts {
            guard !part.isEmpty else {
                throw .invalidLanguage(specification: specification, reason: "empty language name between '+' signs")
            }
            let allowed = part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
            guard allowed else {
                throw .invalidLanguage(
                    specification: specification,
                    reason: "'\(part)' is not a language code (letters, digits, '_' and '-' only, e.g. eng, fra, chi_sim)")
            }
        }
        guard !parts.contains(where: { $0.lowercased() == "osd" }) else {
            throw .invalidLanguage(
                specification: specification,
                reason: "'osd' is Tesseract's orientation and script detection, which reads no text; name languages such as eng or fra+eng")
        }
        guard Set(parts).count == parts.count else {
            throw .invalidLanguage(specification: specification, reason: "a language is listed twice")
        }
        codes = parts
    }

    /// The `+`-joined form Tesseract takes, e.g. `"eng+fra"`.
    public var description: String { codes.joined(separator: "+") }
}
