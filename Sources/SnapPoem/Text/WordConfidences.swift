/// Finds which recognised word each character of the recognised text came from, so that a
/// change can carry the OCR confidence of the words it replaced.
///
/// The text's visible characters are walked together with the words' characters, both with
/// ligatures expanded and `|` read as `I` (as `OCRTextCleanup` does); a hyphen of the words
/// that the text lacks is a joined line-end hyphenation and is skipped. Spaces and line breaks
/// are ignored on both sides. Where the two part ways for any other reason, the rest of the
/// text has no owner.
struct WordConfidences: Sendable {
    private let words: [RecognizedWord]

    init(words: [RecognizedWord]) {
        self.words = words
    }

    /// For each character of the text, the index of the word it came from, or nil.
    func owners(of text: [Character]) -> [Int?] {
        var stream: [(character: Character, word: Int)] = []
        for (index, word) in words.enumerated() {
            for character in word.text where !character.isWhitespace {
                for piece in OCRTextCleanup.normalizedForComparison(character) {
                    stream.append((piece, index))
                }
            }
        }
        var owners = [Int?](repeating: nil, count: text.count)
        var position = 0
        for (index, character) in text.enumerated() where !character.isWhitespace {
            var owner: Int?
            for piece in OCRTextCleanup.normalizedForComparison(character) {
                while position < stream.count, stream[position].character != piece,
                    OCRTextCleanup.isHyphen(stream[position].character)
                {
                    position += 1
                }
                guard position < stream.count, stream[position].character == piece else { return owners }
                owner = owner ?? stream[position].word
                position += 1
            }
            owners[index] = owner
        }
        return owners
    }

    /// The lowest confidence of the words owning characters in `range`; nil when none does.
    func lowest(in range: Range<Int>, owners: [Int?]) -> Double? {
        let found = Set(owners[range].compactMap { $0 })
        return found.map { words[$0].confidence }.min()
    }
}
