/// One change made by a replacement, located in the text it was made in.
public struct TextChange: Sendable, Equatable, Codable {
    /// 1-based line of the original text where the match starts.
    public var line: Int
    /// 1-based column (in characters) where the match starts.
    public var column: Int
    /// What the text said.
    public var original: String
    /// What it became.
    public var replacement: String

    /// Creates a change record.
    public init(line: Int, column: Int, original: String, replacement: String) {
        self.line = line
        self.column = column
        self.original = original
        self.replacement = replacement
    }
}

/// A text after personalisation, with every change that was made.
public struct PersonalizedText: Sendable, Equatable, Codable {
    /// The new text.
    public var text: String
    /// The changes, in the order they occur in the original text.
    public var changes: [TextChange]

    /// Creates a result.
    public init(text: String, changes: [TextChange]) {
        self.text = text
        self.changes = changes
    }
}
