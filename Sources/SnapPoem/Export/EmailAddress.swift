/// One e-mail address, with an optional display name: `alex@example.org` or
/// `Alex Doe <alex@example.org>`.
///
/// The address itself must be plain ASCII (`local@domain`, no spaces, quotes or brackets);
/// the display name may be any text and is encoded for the header as RFC 2047 requires.
public struct EmailAddress: Sendable, Hashable, Codable {
    /// The display name, or nil.
    public var displayName: String?
    /// The address (`addr-spec`), e.g. `alex@example.org`.
    public var address: String

    /// The longest display name taken, in characters (Unicode scalars), once spaces at either
    /// end are removed: a person's name fits many times over, and a header line stays short.
    public static let maximumDisplayNameLength = 200

    /// Creates an address after checking it.
    ///
    /// - Throws: `SnapPoemError.invalidOption` (option `to`) when `address` is not a plain
    ///   `local@domain`, or the display name holds a line break or control character or is
    ///   longer than `maximumDisplayNameLength`.
    public init(displayName: String? = nil, address: String) throws(SnapPoemError) {
        guard Self.isPlainAddress(address) else {
            throw .invalidOption(option: "to", reason: "'\(address)' is not an e-mail address like name@example.org")
        }
        if let displayName, displayName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidOption(option: "to", reason: "the name of '\(address)' contains a line break or control character")
        }
        let name = displayName?.trimmingWhitespace()
        if let length = name?.unicodeScalars.count, length > Self.maximumDisplayNameLength {
            throw .invalidOption(
                option: "to",
                reason: "the name of '\(address)' has \(length) characters; at most \(Self.maximumDisplayNameLength) are taken")
        }
        self.displayName = (name?.isEmpty ?? true) ? nil : name
        self.address = address
    }

    /// Parses one `name@example.org` or `Name <name@example.org>` (the name may be in quotes).
    ///
    /// - Throws: `SnapPoemError.invalidOption` (option `to`) when it is neither.
    public init(parsing text: String) throws(SnapPoemError) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            var name = String(trimmed[..<open]).trimmingWhitespace()
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                    .replacingOccurrences(of: "\\\\", with: "\\")
            }
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            try self.init(displayName: name, address: address)
        } else {
            try self.init(address: trimmed)
        }
    }

    /// Parses a comma-separated list; commas inside quotes or angle brackets do not separate.
    ///
    /// - Throws: `SnapPoemError.invalidOption` (option `to`) for an empty list or a bad entry.
    public static func list(parsing text: String) throws(SnapPoemError) -> [EmailAddress] {
        var entries: [String] = []
        var current = ""
        var inQuotes = false, inBrackets = false, escaped = false
        for character in text {
            defer { escaped = character == "\\" && !escaped }
            if character == "\"" && !escaped { inQuotes.toggle() }
            if !inQuotes && character == "<" { inBrackets = true }
            if !inQuotes && character == ">" { inBrackets = false }
            if character == "," && !inQuotes && !inBrackets {
                entries.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        entries.append(current)
        let nonEmpty = entries.filter { !$0.trimmingWhitespace().isEmpty }
        guard !nonEmpty.isEmpty else { throw .invalidOption(option: "to", reason: "no address given") }
        return try nonEmpty.map { entry throws(SnapPoemError) in try EmailAddress(parsing: entry) }
    }

    /// Characters RFC 5322 allows in an unquoted local part or a domain (`atext` and `.`).
    private static let addressCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~.")

    static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, !domain.isEmpty, local.count <= 64, address.count <= 254
        else { return false }
        let dotAtom = { (part: Substring) in
            part.allSatisfy(addressCharacters.contains) && !part.hasPrefix(".") && !part.hasSuffix(".") && !part.contains("..")
        }
        return dotAtom(local) && dotAtom(domain) && !domain.contains { "!#$%&'*+/=?^_`{|}~".contains($0) }
    }
}
