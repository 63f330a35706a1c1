extension StringProtocol {
    /// Whether the text has a character that is not whitespace: what Tesseract gives for a
    /// blank line or an empty "word" has none.
    var hasVisibleText: Bool { contains { !$0.isWhitespace } }
}
