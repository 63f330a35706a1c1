import Foundation

/// The `--replacements FILE` format, version 1: a UTF-8 text file of `FIND=REPLACE` lines.
///
/// ```
/// # snap-poem replacements v1
/// # Comments start with '#'; blank lines are ignored.
/// Lenore = Alex
/// Guy De Vere = Sam
/// a\=b = c        (FIND "a=b"; write \= for '=' and \\ for '\' in FIND)
/// \#1 = first     (FIND "#1"; \# for a '#' that starts FIND)
/// ```
///
/// - Lines end at LF (`\n`); a CR before it is dropped. Nothing else ends a line: U+2028
///   LINE SEPARATOR, U+2029, U+0085, vertical tab and form feed are characters of the line
///   like any other (of FIND or REPLACE), so line numbers are those an editor shows.
/// - The first line is exactly the header `# snap-poem replacements v1`; a later version's
///   header is refused with the version this build reads.
/// - Each other line is blank, a comment (its first non-space character is `#`), or a pair:
///   FIND is everything before the first unescaped `=`, REPLACE everything after it (it may
///   contain `=` and `#`). Spaces and tabs around FIND and REPLACE are ignored; REPLACE may be
///   empty, to remove FIND.
/// - A FIND may appear once only.
/// - At most `ReplacementSet.maximumPairs` (10 000) pairs; FIND and REPLACE at most
///   `Replacement.maximumLength` (256) characters each, and all of them together at most
///   `ReplacementSet.maximumTotalLength` (100 000).
public enum ReplacementsFile {
    /// The version this build reads and writes.
    public static let version = 1
    /// The first line of a version-1 file.
    public static let header = "# snap-poem replacements v1"
    /// Files larger than this are refused: a replacements file is a few short lines.
    public static let maximumSize = 1 << 20

    /// Reads and parses the file at `path`.
    ///
    /// Only a regular file is read (a FIFO or `/dev/zero` is refused, never waited on), and
    /// at most `maximumSize` bytes of it.
    ///
    /// - Throws: `SnapPoemError.fileNotFound`, `.unreadableFile` (a FIFO, a device, a path
    ///   through a file), or `.invalidReplacementsFile` naming the line and what is wrong
    ///   with it.
    public static func load(path: String) throws(SnapPoemError) -> [Replacement] {
        try read(path: path).replacements
    }

    /// Reads and parses the file at `path`, as `load(path:)` does, and gives the bytes read
    /// too: for a digest of exactly what was read, with no second read that could differ.
    ///
    /// - Throws: as `load(path:)`.
    public static func read(path: String) throws(SnapPoemError) -> (replacements: [Replacement], contents: Data) {
        let data: Data
        do throws(SnapPoemError) {
            data = try InputFile.read(path == "-" ? "./-" : path, limit: maximumSize)
        } catch {
            if case .fileTooLarge = error {
                throw .invalidReplacementsFile(
                    path: path, line: 1, reason: "the file is larger than 1 MiB; a replacements file holds short FIND=REPLACE lines")
            }
            // Its own words: the general one is about images.
            if case .notARegularFile(_, let kind) = error {
                throw .unreadableFile(
                    path: path, reason: "it is \(kind), not a regular file; a replacements file is a regular file of FIND=REPLACE lines")
            }
            throw error
        }
        guard let contents = String(data: data, encoding: .utf8) else {
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let bad = lines.firstIndex { String(data: Data($0), encoding: .utf8) == nil } ?? 0
            throw .invalidReplacementsFile(path: path, line: bad + 1, reason: "not UTF-8 text")
        }
        return (try parse(contents, path: path), data)
    }

    /// Parses a file's contents; `path` names it in errors.
    ///
    /// - Throws: `SnapPoemError.invalidReplacementsFile` for a missing or unsupported header,
    ///   a line without `=`, an empty FIND, or a FIND given twice. A message quotes at most
    ///   60 characters of a line (`OneLine.excerpt`).
    public static func parse(_ contents: String, path: String) throws(SnapPoemError) -> [Replacement] {
        // Split the bytes at LF only: as characters, "\r\n" is one that is not "\n".
        var lines = contents.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(Substring($0)) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        let first = lines.first.map { $0.trimmingSpaces.drop { $0 == "\u{FEFF}" } } ?? ""
        guard first == header else {
            let prefix = "# snap-poem replacements v"
            if first.hasPrefix(prefix), let found = Int(first.dropFirst(prefix.count)) {
                throw .invalidReplacementsFile(
                    path: path, line: 1, reason: "version \(found) is not supported; this snap-poem reads version \(version) ('\(header)')")
            }
            if first.hasPrefix(header + "\r") {
                throw .invalidReplacementsFile(
                    path: path, line: 1,
                    reason: "its lines end in a carriage return alone (old Mac OS); save it with LF or CRLF line ends")
            }
            throw .invalidReplacementsFile(path: path, line: 1, reason: "the first line must be '\(header)'")
        }
        var replacements: [Replacement] = []
        var firstLine: [String: Int] = [:]
        var total = 0
        for (offset, rawLine) in lines.enumerated().dropFirst() {
            let number = offset + 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let shown = OneLine.excerpt(line)
            switch Replacement.split(line) {
            case .failure(.noEquals):
                throw .invalidReplacementsFile(
                    path: path, line: number, reason: "'\(shown)' has no '='; write FIND=REPLACE, e.g. Lenore=Alex")
            case .failure(.emptyFind):
                throw .invalidReplacementsFile(path: path, line: number, reason: "'\(shown)' has nothing to find before '='")
            case .success(let pair):
                let find = pair.find.trimmingSpaces
                guard !find.isEmpty else {
                    throw .invalidReplacementsFile(path: path, line: number, reason: "'\(shown)' has nothing to find before '='")
                }
                if let earlier = firstLine[find] {
                    throw .invalidReplacementsFile(
                        path: path, line: number, reason: "'\(OneLine.excerpt(find))' is already replaced on line \(earlier)")
                }
                firstLine[find] = number
                guard replacements.count < ReplacementSet.maximumPairs else {
                    throw .invalidReplacementsFile(
                        path: path, line: number,
                        reason: "more than \(ReplacementSet.maximumPairs) pairs; snap-poem takes at most \(ReplacementSet.maximumPairs)")
                }
                let replacement = Replacement(find: find, replaceWith: pair.replacement.trimmingSpaces)
                if let problem = replacement.lengthProblem {
                    throw .invalidReplacementsFile(path: path, line: number, reason: problem)
                }
                total += find.unicodeScalars.count + replacement.replacement.unicodeScalars.count
                guard total <= ReplacementSet.maximumTotalLength else {
                    throw .invalidReplacementsFile(
                        path: path, line: number,
                        reason: "the pairs up to this line hold \(total) characters; at most \(ReplacementSet.maximumTotalLength) are taken"
                    )
                }
                replacements.append(replacement)
            }
        }
        return replacements
    }

    /// The file that `parse` reads back as `replacements`: the header, then one escaped line
    /// per pair.
    public static func render(_ replacements: [Replacement]) -> String {
        var text = header + "\n"
        for pair in replacements {
            var find = pair.find.replacing("\\", with: "\\\\").replacing("=", with: "\\=")
            if find.hasPrefix("#") { find = "\\" + find }
            text += find + "=" + pair.replacement + "\n"
        }
        return text
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    fileprivate var trimmingSpaces: String {
        let isSpace = { (character: Character) in character == " " || character == "\t" || character == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
