/// One find/replace pair: every occurrence of `find` becomes `replacement`. What counts as an
/// occurrence (case, whole words, OCR misreadings) is decided by the `ReplacementSet`'s
/// `MatchingOptions`.
public struct Replacement: Sendable, Hashable, Codable {
    /// The text to look for, e.g. the poet's muse, "Lenore".
    public var find: String
    /// What it becomes, e.g. "Alex". May be empty, to remove FIND.
    public var replacement: String

    /// Creates a pair; `find` must not be empty (a programming error: parsed input is checked
    /// by `init(parsing:)` and `ReplacementsFile`).
    public init(find: String, replaceWith replacement: String) {
        precondition(!find.isEmpty, "a replacement needs something to find")
        self.find = find
        self.replacement = replacement
    }

    /// Parses the command-line form `FIND=REPLACE`, splitting at the first `=` not preceded
    /// by a backslash: in FIND, `\=` is an `=`, `\\` a backslash and `\#` a `#`; REPLACE is
    /// taken as written (it may contain `=`).
    ///
    /// - Throws: `SnapPoemError.invalidOption` when there is no `=`, FIND is empty or only
    ///   white space, or FIND or REPLACE is longer than `maximumLength`.
    public init(parsing argument: String) throws(SnapPoemError) {
        switch Self.split(argument) {
        case .success(let pair):
            self.init(find: pair.find, replaceWith: pair.replacement)
            if let problem = lengthProblem { throw .invalidOption(option: Setting.replace.rawValue, reason: problem) }
        case .failure(.noEquals):
            throw .invalidOption(
                option: Setting.replace.rawValue, reason: "'\(OneLine.excerpt(argument))' has no '='; write FIND=REPLACE, e.g. Lenore=Alex")
        case .failure(.emptyFind):
            throw .invalidOption(option: Setting.replace.rawValue, reason: "'\(OneLine.excerpt(argument))' has nothing to find before '='")
        }
    }

    /// The longest FIND, and the longest REPLACE, taken from outside (the command line, a
    /// replacements file, a request), in characters (Unicode scalars): a name or a line of a
    /// poem fits; the tolerant matcher's work grows with FIND's length, and the result's with
    /// REPLACE's.
    public static let maximumLength = 256

    /// Why this pair is longer than `maximumLength` allows, in one line, or nil when it is not.
    public var lengthProblem: String? {
        for (part, text) in [("FIND", find), ("REPLACE", replacement)] {
            let length = text.unicodeScalars.count
            guard length > Self.maximumLength else { continue }
            let shown = String(String.UnicodeScalarView(text.unicodeScalars.prefix(24)))
            return "\(part) '\(shown)…' has \(length) characters; at most \(Self.maximumLength) are taken"
        }
        return nil
    }

    /// Why a `FIND=REPLACE` text is not a pair.
    enum SplitFailure: Error {
        case noEquals, emptyFind
    }

    /// Splits `FIND=REPLACE` at the first unescaped `=`, unescaping FIND.
    static func split(_ argument: some StringProtocol) -> Result<(find: String, replacement: String), SplitFailure> {
        var find = ""
        var index = argument.startIndex
        while index < argument.endIndex {
            let character = argument[index]
            let next = argument.index(after: index)
            if character == "\\", next < argument.endIndex, ["=", "\\", "#"].contains(argument[next]) {
                find.append(argument[next])
                index = argument.index(after: next)
                continue
            }
            if character == "=" {
                // Only spaces to find would change the gaps between every word of the poem.
                guard !find.allSatisfy(\.isWhitespace) else { return .failure(.emptyFind) }
                return .success((find, String(argument[next...])))
            }
            find.append(character)
            index = next
        }
        return .failure(.noEquals)
    }
}
