import Foundation
import SnapPoem
import Testing

@Suite("The Lenore sample, end to end through the library")
struct LenorePipelineTests {
    @Test("Lenore.png is read with a character error rate of at most 2 %, accents intact")
    func readsLenore() async throws {
        let scanner = try await PoemScanner()
        let poem = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        let rate = characterErrorRate(poem.text, truth: truth)
        #expect(rate <= 0.02, "CER \(rate)")
        #expect(poem.text.contains("Pæan"))
        #expect(poem.text.contains("damnèd"))
        #expect(poem.page.hasText)
        #expect(!poem.page.timedOut)
        #expect(poem.page.meanConfidence > 80)
    }

    @Test("Lenore=Alex replaces all three occurrences and leaves no Lenore")
    func personalizesLenore() async throws {
        let configuration = ScanConfiguration(replacements: ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]))
        let scanner = try await PoemScanner(configuration: configuration)
        let poem = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        #expect(!poem.text.contains("Lenore"))
        #expect(poem.text.components(separatedBy: "Alex").count - 1 == 3)
        #expect(poem.personalized.changes.count == 3)
        #expect(poem.personalized.changes.map(\.line) == [1, 6, 19])
    }

    @Test("Stanza breaks of the poem are kept as blank lines")
    func keepsStanzas() async throws {
        let scanner = try await PoemScanner()
        let poem = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        let stanzas = { (text: String) in text.components(separatedBy: "\n\n").count }
        #expect(stanzas(poem.text) == stanzas(truth))
    }
}
