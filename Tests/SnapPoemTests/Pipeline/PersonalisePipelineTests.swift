import Foundation
import SnapPoem
import Testing

/// Photos of the first two stanzas that plain OCR reads imperfectly ("bow!!", "Hown", "own"
/// for "bowl", "flown"; the image pipeline now repairs some of them); each has two "Lenore"s.
let imperfectPhotos = ["photo-jpeg-artefacts.jpg", "photo-blurred.jpg", "photo-low-resolution.png"]

@Suite("Personalisation end to end on photographed poems")
struct PersonalisePipelineTests {
    static let lenoreToAlex = ScanConfiguration(replacements: ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]))

    @Test("On photographed pages, every Lenore of the poem is replaced", arguments: imperfectPhotos)
    func imperfectPhoto(_ image: String) async throws {
        let truth = try Fixtures.groundTruth(for: image)
        let expected = truth.components(separatedBy: "Lenore").count - 1
        let scanner = try await PoemScanner(configuration: Self.lenoreToAlex)
        let poem = try await scanner.scan(fileAt: Fixtures.sample(image))
        let rate = characterErrorRate(poem.recognizedText, truth: truth)
        #expect(rate < 0.1, "the OCR should be usable: CER \(rate)")
        #expect(expected == 2)
        #expect(!poem.text.contains("Lenore"))
        #expect(poem.text.components(separatedBy: "Alex").count - 1 == expected)
        #expect(poem.personalized.changes.count == expected)
        #expect(poem.personalized.changes.map(\.line) == [1, 6])
        #expect(poem.personalized.changes.allSatisfy { ($0.confidence ?? 0) > 50 }, "each change carries its word's confidence")
        #expect(poem.personalized.unmatched.isEmpty)
        // Everything but the name is as recognised.
        #expect(poem.text.replacing("Alex", with: "Lenore") == poem.recognizedText)
    }

    @Test("The JSON export carries each change's FIND, how it matched and its OCR confidence")
    func jsonExport() async throws {
        let scanner = try await PoemScanner(configuration: Self.lenoreToAlex)
        let poem = try await scanner.scan(fileAt: Fixtures.sample("photo-blurred.jpg"))
        let data = try poem.exported(as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let records = try #require(document["replacements"] as? [[String: Any]])
        #expect(records.count == 2)
        for (record, change) in zip(records, poem.personalized.changes) {
            #expect(record["line"] as? Int == change.line)
            #expect(record["original"] as? String == "Lenore")
            #expect(record["find"] as? String == "Lenore")
            #expect(record["match"] as? String == "exact")
            let confidence = try #require(record["confidence"] as? Double)
            #expect(abs(confidence - (change.confidence ?? -1)) < 0.01)
        }
    }

    @Test("Uneven light: a Lenore cut short at the dark edge is not replaced but is reported")
    func unevenLight() async throws {
        let scanner = try await PoemScanner(configuration: Self.lenoreToAlex)
        let poem = try await scanner.scan(fileAt: Fixtures.sample("photo-uneven-light.jpg"))
        let nearMisses = poem.personalized.nearMisses.filter { $0.find == "Lenore" }
        // Each Lenore of the photo is either replaced or listed for the reader to check.
        #expect(poem.personalized.changes.count + nearMisses.count == 2, "\(poem.personalized)")
        #expect(poem.personalized.changes.first?.line == 1)
    }

    /// The recognised page of a real photo, with OCR damage put into chosen words.
    static func damaged(_ page: RecognizedPage, _ damage: [String: String]) -> RecognizedPage {
        var page = page
        var seen: [String: Int] = [:]
        for b in page.blocks.indices {
            for p in page.blocks[b].paragraphs.indices {
                for l in page.blocks[b].paragraphs[p].lines.indices {
                    for w in page.blocks[b].paragraphs[p].lines[l].words.indices {
                        let text = page.blocks[b].paragraphs[p].lines[l].words[w].text
                        seen[text, default: 0] += 1
                        if let new = damage["\(text)#\(seen[text]!)"] {
                            page.blocks[b].paragraphs[p].lines[l].words[w].text = new
                            page.blocks[b].paragraphs[p].lines[l].words[w].confidence = 40
                        }
                    }
                }
            }
        }
        return page
    }

    @Test(
        "The real layout of a photo with OCR-typical damage to the names: every Lenore is still replaced",
        arguments: [
            ["Lenore#1": "Lenorc", "Lenore!#1": "Lcnore!"],
            ["Lenore#1": "L enore", "Lenore!#1": "Len0re!"],
            ["Lenore#1": "LENORC", "Lenore!#1": "lenore!"],
        ])
    func damagedNames(damage: [String: String]) async throws {
        let scanner = try await PoemScanner()
        let poem = try await scanner.scan(fileAt: Fixtures.sample("photo-clean.png"))
        let page = Self.damaged(poem.page, damage)
        let text = OCRTextCleanup.clean(PoemLayout.text(of: page))
        #expect(!text.contains("Lenore"))
        let caseless = damage.values.contains { $0.lowercased() == $0 || $0.uppercased() == $0 }
        let set = ReplacementSet(
            [Replacement(find: "Lenore", replaceWith: "Alex")], options: MatchingOptions(caseSensitive: !caseless))
        let result = set.apply(to: text, words: page.words)
        #expect(result.changes.count == 2, "\(result.changes)")
        #expect(result.changes.allSatisfy { $0.kind != .exact && $0.confidence == 40 })
        #expect(result.text.lowercased().components(separatedBy: "alex").count - 1 == 2)
        #expect(result.text.split(separator: "\n").first.map(String.init)?.lowercased() == "alex")
    }

    @Test("--no-cleanup's layout-only text is what the layout gave, and replacements still work")
    func layoutOnly() async throws {
        var configuration = Self.lenoreToAlex
        configuration.cleanup = .layoutOnly
        let scanner = try await PoemScanner(configuration: configuration)
        let poem = try await scanner.scan(fileAt: Fixtures.sample("photo-low-resolution.png"))
        #expect(poem.recognizedText == PoemLayout.text(of: poem.page))
        #expect(poem.personalized.changes.count == 2)
    }

    @Test("Clean-up makes the recognised Lenore closer to its ground truth, never further")
    func cleanupHelps() async throws {
        let scanner = try await PoemScanner()
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        let poem = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        let raw = PoemLayout.text(of: poem.page)
        let before = characterErrorRate(raw, truth: truth), after = characterErrorRate(poem.recognizedText, truth: truth)
        #expect(after <= before, "clean-up raised the CER from \(before) to \(after)")
        #expect(poem.recognizedText.contains("to-night"), "a real compound keeps its hyphen")
        #expect(poem.recognizedText.contains("Pæan"))
    }
}
