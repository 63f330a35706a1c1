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
    @Test(
        "A heading twenty x-heights tall is read, where the layout put it, and the page is measured flat",
        arguments: [("large-heading.png", "LENORE"), ("large-heading-tall.png", "LENORE"), ("heading-over-four-lines.png", "SHE MOPED.")])
    func largeHeading(name: String, heading: String) async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        let truth = try Fixtures.groundTruth(for: name)
        #expect(characterErrorRate(poem.text, truth: truth) <= 0.005, "\(name): \(poem.text)")
        #expect(poem.text.hasPrefix("\(heading)\n\nAh, broken"), "\(name): \(poem.text)")
        let curvature = try #require(poem.preprocessingReport.curvature, "\(name): no curvature measured")
        #expect(!curvature.applied, "\(name): \(curvature)")
        let reading = try #require(poem.reading)
        // Each is read from a copy of its own: the 600 px titles, and the 450 px headline,
        // whose line reaches both sides of the page: read in the page, in a rectangle one
        // column narrower than the page (`TesseractEngine.lineRectangle`), it is not read
        // surely enough to keep (`TesseractEngine.isSure`).
        #expect(reading.largeLines == 1, "\(name): \(reading)")
    }

    @Test("The heading is the poet's muse too: --replace reaches it")
    func headingReplaced() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.replace: ["Lenore=Alex"], .ignoreCase: [""]])
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample("large-heading.png"))
        #expect(poem.text.hasPrefix("ALEX\n"), "\(poem.text)")
        #expect(!poem.text.lowercased().contains("lenore"), "\(poem.text)")
    }

    @Test("Lines of ordinary size are not large type; a heading three times the median line of text is")
    func largeLineRule() throws {
        func line(_ top: Int, _ height: Int, width: Int = 1200) -> LayoutLine {
            let box = BoundingBox(left: 100, top: top, right: 100 + width, bottom: top + height)
            return LayoutLine(block: 0, paragraph: 0, box: box, blockBox: box)
        }
        let body = (0..<6).map { line(600 + 60 * $0, 48) }
        #expect(PageReading.largeLines(of: body, pageHeight: 2000).isEmpty)
        #expect(PageReading.largeLines(of: [line(40, 150)] + body, pageHeight: 2000) == [0])
        // A heading over a single line of text is found (the lower median of two).
        #expect(PageReading.largeLines(of: [line(40, 150), line(300, 48)], pageHeight: 2000) == [0])
        // Specks of dirt do not lower the median: 80 px lines among many 12 px specks stay
        // ordinary.
        let specks = (0..<12).map { line(1500 + 20 * $0, 12, width: 14) }
        #expect(PageReading.largeLines(of: (0..<4).map { line(200 + 100 * $0, 80) } + specks, pageHeight: 2000).isEmpty)
        // Under 64 px nothing is large, whatever the median; a tall narrow shape never is; a
        // line over a quarter of the page always is.
        #expect(PageReading.largeLines(of: [line(40, 60)] + (0..<6).map { line(600 + 30 * $0, 16) }, pageHeight: 2000).isEmpty)
        #expect(PageReading.largeLines(of: [line(40, 400, width: 60)] + body, pageHeight: 2000).isEmpty)
        #expect(PageReading.largeLines(of: [line(40, 120)] + (0..<6).map { line(600 + 60 * $0, 48) }, pageHeight: 400) == [0])
    }

    @Test("A reading report written before large lines were counted still decodes, with 0 of them")
    func olderReportDecodes() throws {
        let older = #"{"engines":2,"lineCount":7,"language":"eng","frenchLines":0,"lineLanguageRereads":0,"layoutMilliseconds":35}"#
        let report = try JSONDecoder().decode(ReadingReport.self, from: Data(older.utf8))
        #expect(
            report.largeLines == 0 && report.enlargedRereads == 0 && report.layoutReduction == nil && report.stoppedEarly == nil
                && report.lineStartTurn == nil)
        #expect(report.lineCount == 7 && report.language == .english)
        var current = report
        current.largeLines = 1
        let again = try JSONDecoder().decode(ReadingReport.self, from: try JSONEncoder().encode(current))
        #expect(again == current)
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
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample("illustration.png"))
        #expect(poem.text.isEmpty, "\(poem.text)")
        #expect(poem.coverage?.textShapeCount == 0)
    }

    @Test("A large line that holds a line read with the page is not read again: its text would stand twice")
    func largeLineHoldingReadLines() throws {
        let image = try #require(PoemImage.filled(width: 1000, height: 1200))
        func line(_ block: Int, _ box: BoundingBox) -> LayoutLine { LayoutLine(block: block, paragraph: 0, box: box, blockBox: box) }
        var found = (0..<6).map { line(1, BoundingBox(left: 100, top: 100 + 80 * $0, right: 800, bottom: 150 + 80 * $0)) }
        // Taller than a quarter of the page, left out of its reading: a box that begins just
        // below the last line (500–550), whose rectangle's margin of a sixth of its height
        // takes that line in, and a picture further below that holds no line.
        found.append(line(2, BoundingBox(left: 80, top: 552, right: 900, bottom: 900)))
        found.append(line(3, BoundingBox(left: 80, top: 850, right: 900, bottom: 1160)))
        var state = ReadingState(found: found, image: image)
        #expect(state.reading == Array(0..<6))
        #expect(!LargeTypePass.holdsOtherLines(6, in: state, image: image), "no line has been read yet")
        for position in state.lines.indices {
            let box = state.boxes[position]
            state.lines[position] = RecognizedLine(
                words: [RecognizedWord(text: "line", confidence: 95, boundingBox: box)], boundingBox: box, confidence: 95)
        }
        #expect(LargeTypePass.holdsOtherLines(6, in: state, image: image))
        #expect(!LargeTypePass.holdsOtherLines(7, in: state, image: image))
    }
}
