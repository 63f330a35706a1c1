import Foundation
import Testing

@testable import SnapPoem

/// A line holding a word read with little confidence is read again from a copy enlarged
/// ×1.5, and the surer reading is kept (`PageReading.rereadEnlarged`).
@Suite("Doubtful lines read again enlarged")
struct DoubtfulLineTests {
    /// The default scanner's reading of `sample`, with the image Tesseract saw.
    static func scanned(_ sample: String) async throws -> (scanner: PoemScanner, poem: ScannedPoem, image: PoemImage) {
        var configuration = ScanConfiguration()
        configuration.keepsPreprocessedImage = true
        let scanner = try await PoemScanner(configuration: configuration)
        let poem = try await scanner.scan(fileAt: Fixtures.sample(sample))
        return (scanner, poem, try #require(poem.preprocessedImage))
    }

    @Test("An enlarged copy of a line reads as the line, its word boxes back in the page's pixels")
    func rereadMapsBack() async throws {
        let (scanner, poem, image) = try await Self.scanned("Lenore.png")
        let lines = Array(poem.page.lines.prefix(4))
        #expect(lines.count == 4)
        let boxes = lines.map(\.boundingBox)
        let workers = await scanner.engines.workers()
        let read = try await PageReading.rereadEnlarged(
            Array(boxes.indices), boxes: boxes, image: image, engines: { _ in workers }, options: RecognitionOptions(),
            deadline: nil, name: "Lenore.png")
        #expect(!read.timedOut)
        #expect(read.lines.map(\.0).sorted() == Array(boxes.indices))
        for (index, line) in read.lines {
            #expect(characterErrorRate(line.text, truth: lines[index].text) <= 0.05, "\(line.text) against \(lines[index].text)")
            let rectangle = try #require(TesseractEngine.lineRectangle(boxes[index], in: image))
            for word in line.words {
                let box = word.boundingBox
                #expect(box.left >= rectangle.left - 1 && box.right <= rectangle.right + 1, "\(word.text) \(box) outside \(rectangle)")
                #expect(box.top >= rectangle.top - 1 && box.bottom <= rectangle.bottom + 1, "\(word.text) \(box) outside \(rectangle)")
                // Each word sits over the same stretch of the line as in the first reading.
                #expect(lines[index].words.contains { abs($0.boundingBox.left - box.left) <= 4 }, "\(word.text) \(box)")
            }
        }
    }

    @Test("A line whose enlarged copy would pass Tesseract's 32767 px keeps its first reading")
    func boundedBySideLimit() async throws {
        // 22 000 px wide: ×1.5 would be 33 000.
        let wide = try #require(PoemImage.filled(width: 22_000, height: 120))
        let scanner = try await SharedScanner.get()
        let workers = await scanner.engines.workers()
        let boxes = [BoundingBox(left: 0, top: 30, right: 22_000, bottom: 90), BoundingBox(left: 100, top: 30, right: 900, bottom: 90)]
        let read = try await PageReading.rereadEnlarged(
            [0, 1], boxes: boxes, image: wide, engines: { _ in workers }, options: RecognitionOptions(), deadline: nil, name: "wide")
        // The long line is not read again; the short one is (blank paper: no words).
        #expect(read.lines.map(\.0) == [1])
        #expect(!read.timedOut)
    }

    @Test("A page with a doubtful word keeps the surer reading, and reads no worse")
    func keepsTheSurerReading() async throws {
        let sample = "photo-clean.png"
        let (scanner, poem, image) = try await Self.scanned(sample)
        let options = ScanConfiguration().recognition
        var plain = PageReading(engines: scanner.engines)
        plain.rereadsDoubtfulLines = false
        let first = try #require(try await plain.read(image, options: options, deadline: nil, name: sample, progress: nil))
        let doubtful = first.page.lines.filter(PageReading.hasDoubtfulWord)
        #expect(!doubtful.isEmpty, "photo-clean.png has a word read with less than 50")
        let again = try #require(
            try await PageReading(engines: scanner.engines).read(image, options: options, deadline: nil, name: sample, progress: nil))
        #expect(first.report.enlargedRereads == 0)
        #expect(again.report.enlargedRereads >= 1)
        #expect(poem.reading?.enlargedRereads == again.report.enlargedRereads)
        // Every line replaced was read with a higher mean confidence; the others are untouched.
        #expect(first.page.lines.count == again.page.lines.count)
        for (before, after) in zip(first.page.lines, again.page.lines) where before != after {
            #expect(PageReading.confidence(of: after) > PageReading.confidence(of: before))
        }
        let truth = try Fixtures.groundTruth(for: sample)
        #expect(characterErrorRate(again.page.text, truth: truth) <= characterErrorRate(first.page.text, truth: truth))
    }
}
