import Foundation
import Testing

@testable import SnapPoem

/// The words a person should check before sending: Tesseract's unsure words, placed in the
/// personalised poem's text.
@Suite("Uncertain words: where the personalised poem needs a look")
struct UncertainWordTests {
    @Test("On the tilted photo, 'bow!!' (for 'bowl!') is unsure, on line 3, where the text has it; replaced words are not listed")
    func tiltedPhoto() async throws {
        let configuration = ScanConfiguration(replacements: ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]))
        let poem = try await PoemScanner(configuration: configuration).scan(fileAt: Fixtures.sample("photo-rotated-5deg.jpg"))
        let words = poem.uncertainWords()
        let characters = Array(poem.text)
        #expect(!words.isEmpty)
        for word in words {
            #expect(String(characters[word.range]) == word.text, "\(word)")
            #expect(word.confidence < 90)
            #expect(word.band != .sure)
            let lines = poem.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[word.line - 1].contains(word.text), "\(word) on line \(word.line)")
            #expect(!word.text.contains("Alex"))
        }
        let misread = try #require(words.first { $0.text.hasPrefix("bow") }, "\(words.map(\.text))")
        #expect(misread.line == 3, "\(poem.text)")
        #expect(words.map(\.range.lowerBound) == words.map(\.range.lowerBound).sorted())
    }

    @Test("A stricter style finds more; a lenient one none")
    func threshold() async throws {
        let poem = try await PoemScanner().scan(fileAt: Fixtures.sample("photo-rotated-5deg.jpg"))
        let standard = poem.uncertainWords().count
        #expect(poem.uncertainWords(style: AnnotationStyle(sureConfidence: 0, unsureConfidence: 0)).isEmpty)
        #expect(poem.uncertainWords(style: AnnotationStyle(sureConfidence: 99, unsureConfidence: 70)).count > standard)
    }
}
