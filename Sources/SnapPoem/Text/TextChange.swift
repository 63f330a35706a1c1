/// How a replacement found the text it replaced.
public enum MatchKind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The text was exactly FIND (Unicode-equivalent: NFC and NFD spellings are the same).
    case exact
    /// The text was FIND in other letter case (`--ignore-case`).
    case caseInsensitive
    /// The text was FIND as the OCR misread it: a confused glyph ("Lenorc"), a split
    /// ("L enore"), a word hyphenated across a line end ("Len-\nore").
    case ocrTolerant
}

/// One change made by a replacement, located in the text it was made in.
public struct TextChange: Sendable, Equatable, Codable {
    /// 1-based line, in the text that was personalised, where the replaced text starts.
    public var line: Int
    /// 1-based column (in characters, i.e. grapheme clusters) where the replaced text starts.
    public var column: Int
    /// What the text said, exactly as it was (it may span a line break: "Len-\nore").
    public var original: String
    /// What it became.
    public var replacement: String
    /// The FIND of the replacement that matched.
    public var find: String
    /// How the text matched FIND.
    public var kind: MatchKind
    /// Tesseract's confidence (0–100) in the recognised word(s) that were replaced: the lowest
    /// when the text spans several words. Nil when the words were not given or not found.
    public var confidence: Double?

    /// Creates a change record; `find` defaults to `original`, `kind` to `.exact`.
    public init(
        line: Int, column: Int, original: String, replacement: String,
        find: String? = nil, kind: MatchKind = .exact, confidence: Double? = nil
    ) {
        self.line = line
        self.column = column
        self.original = original
        self.replacement = replacement
        self.find = find ?? original
        self.kind = kind
        self.confidence = confidence
    }
}
