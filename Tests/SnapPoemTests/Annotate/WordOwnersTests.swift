import Foundation
import Testing

@testable import SnapPoem

/// Words tied to the text: each change's place in both texts, the line each word stands on in
/// the personalised poem, and the words each change replaced.
@Suite("Words and lines: from Tesseract's words to the personalised poem's lines")
struct WordOwnersTests {
    @Test("A replacement's place in the new text, also when a hyphenated word moves up a line")
    func placements() {
        let text = "See thy love, Len-\nore! and\nthe end\n"
        let result = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: text)
        #expect(result.text == "See thy love, Alex!\nand\nthe end\n")
        let placement = result.placements.first
        #expect(result.placements.count == 1)
        #expect(placement?.replacement == 14..<18)
        let characters = Array(result.text)
        #expect(String(characters[14..<18]) == "Alex")
        // "and" started at 24 and now starts at 20; "the" moved by as much.
        #expect(result.personalizedOffset(ofOriginal: 24) == 20)
        #expect(result.personalizedOffset(ofOriginal: 28) == 24)
        #expect(characters[24] == "t")
        // Inside the replaced word: the replacement's start.
        #expect(result.personalizedOffset(ofOriginal: 16) == 14)
        // Before it: unchanged.
        #expect(result.personalizedOffset(ofOriginal: 4) == 4)
        // Equality and coding ignore the placements, which follow from the rest.
        let handmade = PersonalizedText(
            text: result.text, changes: result.changes, unmatched: result.unmatched, nearMisses: result.nearMisses)
        #expect(handmade == result)
    }

    @Test("Words get the lines of the personalised poem, which a line joined by a replacement shifts")
    func lines() {
        func word(_ text: String, _ left: Int, _ top: Int, _ confidence: Double = 95) -> RecognizedWord {
            RecognizedWord(
                text: text, confidence: confidence, boundingBox: BoundingBox(left: left, top: top, right: left + 50, bottom: top + 20))
        }
        let words = [word("Sweet", 0, 0), word("Len-", 60, 0), word("ore", 0, 30, 61), word("hath", 0, 60), word("gone", 60, 60)]
        let page = RecognizedPage(
            text: "", meanConfidence: 90,
            blocks: [
                RecognizedBlock(
                    paragraphs: [
                        RecognizedParagraph(
                            lines: [
                                RecognizedLine(
                                    words: Array(words[0..<2]), boundingBox: BoundingBox(left: 0, top: 0, right: 110, bottom: 20),
                                    confidence: 90),
                                RecognizedLine(
                                    words: [words[2]], boundingBox: BoundingBox(left: 0, top: 30, right: 50, bottom: 50), confidence: 90),
                                RecognizedLine(
                                    words: Array(words[3...]), boundingBox: BoundingBox(left: 0, top: 60, right: 110, bottom: 80),
                                    confidence: 90),
                            ], boundingBox: BoundingBox(left: 0, top: 0, right: 110, bottom: 80))
                    ], boundingBox: BoundingBox(left: 0, top: 0, right: 110, bottom: 80))
            ], timedOut: false, imageWidth: 200, imageHeight: 100)
        let recognized = "Sweet Len-\nore\nhath gone\n"
        let personalized = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: recognized, words: page.words)
        #expect(personalized.text == "Sweet Alex\nhath gone\n")
        #expect(personalized.changes.first?.confidence == 61)
        let poem = ScannedPoem(
            source: "joined.png", imageFacts: ImageFacts(format: .png, storedWidth: 200, storedHeight: 100, orientation: .up),
            recognizedWidth: 200, recognizedHeight: 100, preprocessingReport: PreprocessingReport(inputWidth: 200, inputHeight: 100),
            page: page, recognizedText: recognized, personalized: personalized, timings: StageTimings())
        let owners = WordOwners(poem: poem)
        #expect((0..<5).map(owners.line(ofWord:)) == [1, 1, 1, 2, 2])
        #expect((0..<5).map(owners.change(ofWord:)) == [nil, 0, 0, nil, nil])
    }
}
