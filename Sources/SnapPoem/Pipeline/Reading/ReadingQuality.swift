import Foundation

/// How sure a reading of a page is, measured from the reading itself, to tell which of two
/// readings of the same page to keep (`PlainReadingCheck`).
///
/// Tesseract's mean word confidence cannot tell them apart: a reading that lost half the page,
/// or read a table's grain as letters, still scores 85–95 on the words it kept. What differs
/// is how much sure text each holds. A letter is sure when its word is in the model's
/// dictionary (`RecognizedWord.isFromDictionary`: a misreading rarely spells a word) and read
/// with at least `dictionaryConfidence`, or when
/// the word is mostly letters and read with at least `sureConfidence` (a name, a rare or old
/// word). Every other character, punctuation and symbols included, is doubtful: garbage read
/// from a texture is made of them. The reading with more sure letters, less the doubtful
/// characters, holds more of the page and less noise.
public struct ReadingQuality: Sendable, Equatable, Codable {
    /// Letters in sure words.
    public var sureLetters: Int
    /// Characters of the other words.
    public var doubtfulCharacters: Int

    /// The word confidence from which a word that is not in the dictionary counts as sure.
    public static let sureConfidence = 85.0

    /// The word confidence from which a word in the dictionary counts as sure. Garbage read
    /// from a texture (a screen's pixel grid, a table's grain) is full of short words that are
    /// in the dictionary ("a", "ie", "ne", "eet"), most of them read at under 35. On the
    /// corpus's tune part, a floor of 35 left 20 images worse than the CLI by a point, not 25;
    /// at 50, real words on distorted pages were lost too.
    public static let dictionaryConfidence = 35.0

    /// The score two readings are compared by: sure letters less doubtful characters.
    public var score: Int { sureLetters - doubtfulCharacters }

    /// Creates a measure.
    public init(sureLetters: Int, doubtfulCharacters: Int) {
        self.sureLetters = sureLetters
        self.doubtfulCharacters = doubtfulCharacters
    }

    /// Measures `page`'s words.
    public init(of page: RecognizedPage) {
        self.init(words: page.words)
    }

    /// Measures `words`.
    init(words: [RecognizedWord]) {
        var sure = 0, doubtful = 0
        for word in words {
            let characters = word.text.filter { !$0.isWhitespace }
            guard !characters.isEmpty else { continue }
            let letters = characters.count { $0.isLetter }
            if Self.isSure(word, letters: letters, characters: characters.count) {
                sure += letters
            } else {
                doubtful += characters.count
            }
        }
        self.init(sureLetters: sure, doubtfulCharacters: doubtful)
    }

    /// Whether `word` (`letters` of its `characters` are letters) counts as sure.
    static func isSure(_ word: RecognizedWord, letters: Int, characters: Int) -> Bool {
        guard letters > 0 else { return false }
        if word.isFromDictionary { return word.confidence >= dictionaryConfidence }
        return word.confidence >= sureConfidence && 2 * letters > characters
    }
}
