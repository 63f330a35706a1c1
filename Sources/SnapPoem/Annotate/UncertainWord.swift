/// A word of the personalised poem that Tesseract was unsure of: where a person should look
/// before sending the poem ("bow!!" for "bowl!" scores in the 80s), as a page marks it.
public struct UncertainWord: Sendable, Equatable {
    /// The word as it stands in the poem's text (`ScannedPoem.text`).
    public var text: String
    /// Tesseract's confidence in it, 0–100.
    public var confidence: Double
    /// The band the confidence falls in (`AnnotationStyle.band(forConfidence:)`).
    public var band: ConfidenceBand
    /// Where it stands in the poem's text, in `Character` offsets.
    public var range: Range<Int>
    /// The line of the poem's text it is on, 1-based, blank lines counted (as the JSON
    /// export's `replacements[].line` and the annotated photo's numbers count).
    public var line: Int

    /// Creates a record.
    public init(text: String, confidence: Double, band: ConfidenceBand, range: Range<Int>, line: Int) {
        self.text = text
        self.confidence = confidence
        self.band = band
        self.range = range
        self.line = line
    }
}

extension ScannedPoem {
    /// The words of the personalised poem that Tesseract was less sure of than the style's
    /// sure band (`AnnotationStyle.sureConfidence`, 90 by default), in the order of the text.
    ///
    /// Each recognised word is found in the recognised text as the annotated photo finds it
    /// (ligatures, `|` for I and joined hyphens allowed for), then carried over to the
    /// personalised text. Replaced words are left out: they are the person's own names. So are
    /// words of punctuation alone (a dash read apart), and words the text does not hold (the
    /// clean-up dropped them).
    public func uncertainWords(style: AnnotationStyle = .standard) -> [UncertainWord] {
        let words = page.words
        let owners = WordConfidences(words: words).owners(of: Array(recognizedText))
        // The recognised text's characters of each word.
        var spans = [Range<Int>?](repeating: nil, count: words.count)
        for (offset, owner) in owners.enumerated() {
            guard let owner else { continue }
            spans[owner] = spans[owner].map { min($0.lowerBound, offset)..<max($0.upperBound, offset + 1) } ?? offset..<(offset + 1)
        }
        let replaced = Set(WordOwners(poem: self).replacedWords)
        let characters = Array(personalized.text)
        var lineStarts = [0]
        for (offset, character) in characters.enumerated() where character.isNewline { lineStarts.append(offset + 1) }
        var found: [UncertainWord] = []
        for (index, word) in words.enumerated() where word.confidence < style.sureConfidence && !replaced.contains(index) {
            guard let span = spans[index] else { continue }
            let start = personalized.personalizedOffset(ofOriginal: span.lowerBound)
            let end = personalized.personalizedOffset(ofOriginal: span.upperBound - 1) + 1
            guard start >= 0, start < end, end <= characters.count else { continue }
            let text = String(characters[start..<end])
            // A dash or a quote alone is not worth a person's look.
            guard !text.contains(where: \.isNewline), text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            let line = lineStarts.lastIndex { $0 <= start }.map { $0 + 1 } ?? 1
            found.append(
                UncertainWord(
                    text: text, confidence: word.confidence, band: style.band(forConfidence: word.confidence), range: start..<end,
                    line: line))
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
