import Testing

@testable import SnapPoem

/// A recognised word with a confidence, at a made-up place.
private func word(_ text: String, _ confidence: Double) -> RecognizedWord {
    RecognizedWord(text: text, confidence: confidence, boundingBox: BoundingBox(left: 0, top: 0, right: 1, bottom: 1))
}

@Suite("Changes carry the OCR confidence of the words they replaced")
struct WordConfidenceTests {
    let words = [
        word("See!", 91), word("thy", 95), word("love,", 90), word("Lenorc!", 41.5),
        word("The", 96), word("sweet", 93), word("Len-", 62), word("ore", 58), word("hath", 90),
        word("ﬂown", 80), word("|", 30), word("L", 20), word("enore", 70),
    ]

    @Test("Through layout and clean-up, each change finds its words")
    func throughCleanup() {
        let layout = "See! thy love, Lenorc!\nThe sweet Len-\nore hath\nﬂown | L enore\n"
        let cleaned = OCRTextCleanup.clean(layout)
        #expect(cleaned == "See! thy love, Lenorc!\nThe sweet Lenore\nhath\nflown I L enore\n")
        let set = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "flown", replaceWith: "gone")])
        let result = set.apply(to: cleaned, words: words)
        #expect(result.changes.map(\.original) == ["Lenorc", "Lenore", "flown", "L enore"])
        #expect(result.changes.map(\.confidence) == [41.5, 58, 80, 20])
        #expect(result.text == "See! thy love, Alex!\nThe sweet Alex\nhath\ngone I Alex\n")
    }

    @Test("Without cleaning, the hyphenated word's lowest confidence is used")
    func withoutCleanup() {
        let layout = "See! thy love, Lenorc!\nThe sweet Len-\nore hath\nﬂown | L enore\n"
        let result = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: layout, words: words)
        #expect(result.changes.map(\.confidence) == [41.5, 58, 20])
    }

    @Test("Text that does not come from the words has no confidence, and nothing breaks")
    func unrelatedText() {
        let result = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: "Something else, Lenore", words: words)
        #expect(result.text == "Something else, Alex")
        #expect(result.changes.map(\.confidence) == [nil])
        #expect(
            ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: "Lenore", words: []).changes.first?.confidence
                == nil)
    }
}
