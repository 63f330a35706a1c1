/// A word left alone that looks like FIND cut short or changed at its end ("Leno", "Lenor",
/// "Lenora", or "lenore" when case matters, for "Lenore"): too far from FIND to replace
/// safely, worth a look.
///
/// Listed when the word shares with FIND a first part of at least two thirds of FIND's
/// letters, ignoring case, and is at most one letter longer. OCR loses the end of a word at
/// the edge of a photo or in a shadow; a person can check the image.
public struct NearMiss: Sendable, Equatable, Codable {
    /// The FIND the word resembles.
    public var find: String
    /// The word, as it is written in the text.
    public var word: String
    /// Its 1-based line.
    public var line: Int
    /// Its 1-based column.
    public var column: Int

    /// Creates a record of a near miss.
    public init(find: String, word: String, line: Int, column: Int) {
        self.find = find
        self.word = word
        self.line = line
        self.column = column
    }
}
