import Foundation
import Testing

@testable import SnapPoem

/// Issue 20, "large type is read at a scale that suits it": a heading many times the size of
/// the text beside it. `SampleImages/large-heading.png` (make_samples.py) has the title in
/// 600 px capitals over four lines of 48 px print. Before, the heading was lost: handed the
/// whole page and asked for that one line, Tesseract reads it as nothing, and the coverage
/// check counts letter-sized shapes only. Smaller headings (300–450 px) were bent off the
/// page by a line shape extrapolated from four short lines.
@Suite("Large type")
struct LargeTypeTests {
    @Test("A heading twenty x-heights tall is read, where the layout put it, and the page is not bent")
    func largeHeading() async throws {
        let name = "large-heading.png"
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        let truth = try Fixtures.groundTruth(for: name)
        #expect(characterErrorRate(poem.text, truth: truth) <= 0.005, "\(poem.text)")
        #expect(poem.text.hasPrefix("LENORE\n\nAh, broken"), "\(poem.text)")
        let reading = try #require(poem.reading)
        #expect(reading.largeLines == 1, "\(reading)")
        #expect(poem.preprocessingReport.curvature?.applied != true, "\(String(describing: poem.preprocessingReport.curvature))")
    }

    @Test("The heading is the poet's muse too: --replace reaches it")
    func headingReplaced() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.replace: ["Lenore=Alex"], .ignoreCase: [""]])
        let scanner = try await PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample("large-heading.png"))
        #expect(poem.text.hasPrefix("ALEX\n"), "\(poem.text)")
        #expect(!poem.text.lowercased().contains("lenore"), "\(poem.text)")
    }

    @Test("Lines of ordinary size are not large type; a heading three times the median line is")
    func largeLineRule() throws {
        func line(_ top: Int, _ height: Int, width: Int = 1200) -> LayoutLine {
            let box = BoundingBox(left: 100, top: top, right: 100 + width, bottom: top + height)
            return LayoutLine(block: 0, paragraph: 0, box: box, blockBox: box)
        }
        let body = (0..<6).map { line(600 + 60 * $0, 48) }
        #expect(PageReading.largeLines(of: body, pageHeight: 2000).isEmpty)
        #expect(PageReading.largeLines(of: [line(40, 150)] + body, pageHeight: 2000) == [0])
        // Under 64 px nothing is large, whatever the median; a tall narrow shape never is.
        #expect(PageReading.largeLines(of: [line(40, 60)] + (0..<6).map { line(600 + 30 * $0, 16) }, pageHeight: 2000).isEmpty)
        #expect(PageReading.largeLines(of: [line(40, 400, width: 60)] + body, pageHeight: 2000).isEmpty)
    }

    @Test("A drawing is not flattened: its strokes do not follow one line shape, as printed lines do")
    func drawingNotFlattened() async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample("illustration.png"))
        #expect(poem.preprocessingReport.curvature?.applied != true, "\(String(describing: poem.preprocessingReport.curvature))")
        #expect(poem.text.isEmpty, "\(poem.text)")
    }

    @Test("A drawing read without flattening gives no text either: noise on a page without text-like ink is dropped")
    func drawingUnflattenedGivesNoText() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.noDewarp: [""]])
        let scanner = try await PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample("illustration.png"))
        #expect(poem.text.isEmpty, "\(poem.text)")
        #expect(poem.coverage?.textShapeCount == 0)
    }
}
