/// A FIND that matched nothing, with the word of the text that came closest to it.
public struct UnmatchedFind: Sendable, Equatable, Codable {
    /// The word (or words) of the text nearest to FIND, and where it is.
    public struct Suggestion: Sendable, Equatable, Codable {
        /// The text's word, as it is written there.
        public var word: String
        /// Its 1-based line.
        public var line: Int
        /// Its 1-based column.
        public var column: Int

        /// Creates a suggestion.
        public init(word: String, line: Int, column: Int) {
            self.word = word
            self.line = line
            self.column = column
        }
    }

    /// The FIND that was not found.
    public var find: String
    /// The closest word, when one is close: at most about a third of its letters differ
    /// (ignoring case), e.g. two for "Lenore". Looked for for the first
    /// `maximumSuggestions` unmatched FINDs of a set only; later ones have none.
    public var closest: Suggestion?

    /// How many unmatched FINDs of one application get a closest word: each search reads
    /// the whole text.
    public static let maximumSuggestions = 100

    /// Creates a record of a FIND that matched nothing.
    public init(find: String, closest: Suggestion?) {
        self.find = find
        self.closest = closest
    }

    /// One line for a person: `'Lenore' not found; closest: 'Lenorc' on line 4`.
    public var message: String {
        guard let closest else { return "'\(find)' not found" }
        return "'\(find)' not found; closest: '\(closest.word.escapingLineBreaks)' on line \(closest.line)"
    }
}

extension String {
    /// The text with line breaks written as `\n`, for one-line messages.
    var escapingLineBreaks: String {
        replacing("\r\n", with: "\\n").replacing("\n", with: "\\n")
    }
}
