import Foundation
import Testing

@testable import SnapPoem

/// Each line is read in a rectangle of the page (`TesseractEngine.lineRectangle`). Given a
/// rectangle as wide as the whole image, Tesseract 5.3 reads other rows than the rectangle's
/// (a border along the top of a photo came out as the poem's last line, which then stood
/// twice in the text), so no rectangle spans the whole width.
@Suite("Line rectangles")
struct LineRectangleTests {
    @Test(
        "A line reaching both sides, with its margins, loses a column on the side it leaves free",
        arguments: [
            // (line box, expected rectangle) in a 1000×600 image; margins: a sixth of the
            // height above and below, half of it to the sides.
            (BoundingBox(left: 10, top: 100, right: 990, bottom: 160), BoundingBox(left: 1, top: 90, right: 1000, bottom: 170)),
            (BoundingBox(left: 0, top: 100, right: 990, bottom: 160), BoundingBox(left: 0, top: 90, right: 999, bottom: 170)),
            (BoundingBox(left: 0, top: 0, right: 1000, bottom: 60), BoundingBox(left: 0, top: 0, right: 999, bottom: 70)),
            (BoundingBox(left: 100, top: 100, right: 900, bottom: 160), BoundingBox(left: 70, top: 90, right: 930, bottom: 170)),
        ])
    func neverTheWholeWidth(line: BoundingBox, expected: BoundingBox) throws {
        let rectangle = try #require(TesseractEngine.lineRectangle(line, width: 1000, height: 600))
        #expect(rectangle == expected)
        #expect(rectangle.left > 0 || rectangle.right < 1000)
    }

    @Test("A line as wide as the page is kept only when read surely: the edge of the paper or a rule reads as garbage")
    func wholeWidthLinesKeptWhenSure() throws {
        let page = try #require(PoemImage.filled(width: 1000, height: 600))
        #expect(TesseractEngine.spansWholeWidth(BoundingBox(left: 10, top: 100, right: 990, bottom: 160), in: page))
        #expect(!TesseractEngine.spansWholeWidth(BoundingBox(left: 40, top: 100, right: 990, bottom: 160), in: page))
        #expect(!TesseractEngine.spansWholeWidth(BoundingBox(left: 10, top: 100, right: 960, bottom: 160), in: page))
        let box = BoundingBox(left: 10, top: 100, right: 990, bottom: 160)
        func line(_ confidences: [Double]) -> RecognizedLine {
            RecognizedLine(
                words: confidences.map { RecognizedWord(text: "word", confidence: $0, boundingBox: box) }, boundingBox: box,
                confidence: 0)
        }
        #expect(TesseractEngine.isSure(line([96, 91, 60])))
        #expect(!TesseractEngine.isSure(line([26, 56, 23, 35])))
        #expect(!TesseractEngine.isSure(line([])))
        // Blank words do not count.
        var blank = line([95])
        blank.words.append(RecognizedWord(text: " ", confidence: 0, boundingBox: box))
        #expect(TesseractEngine.isSure(blank))
    }

    @Test("Lines boxed across the page's whole width read as themselves, not as other rows of it")
    func wholeWidthLinesReadThemselves() async throws {
        var configuration = ScanConfiguration()
        configuration.keepsPreprocessedImage = true
        let scanner = try await PoemScanner(configuration: configuration)
        let poem = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        let image = try #require(poem.preprocessedImage)
        // The title and the first lines of the first stanza, each box stretched to both sides.
        let lines = Array(poem.page.lines.prefix(4))
        #expect(lines.count == 4)
        let boxes = lines.map { BoundingBox(left: 0, top: $0.boundingBox.top, right: image.width, bottom: $0.boundingBox.bottom) }
        let workers = await scanner.engines.workers()
        let read = try await PageReading.split(
            Array(boxes.indices), boxes: boxes, image: image, with: workers, options: RecognitionOptions(), deadline: nil,
            name: "Lenore.png")
        #expect(!read.timedOut)
        #expect(read.lines.map(\.0).sorted() == Array(boxes.indices))
        for (index, line) in read.lines {
            #expect(characterErrorRate(line.text, truth: lines[index].text) <= 0.05, "\(line.text) against \(lines[index].text)")
        }
    }
}
