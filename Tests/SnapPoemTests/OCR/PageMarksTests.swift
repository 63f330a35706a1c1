import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// The bound on Tesseract's layout analysis (`RecognitionOptions.markLimit`): marks are
/// counted exactly, a page over the limit is refused before Tesseract sees it, and a region
/// is counted alone.
@Suite("Marks on a page are counted, and a page with too many is refused before layout analysis")
struct PageMarksTests {
    /// A white page of `rows` × `columns` black 4×4 squares, 8 px apart, 1 bit a pixel.
    static func squares(rows: Int, columns: Int) throws -> PixImage {
        let page = try #require(PixImage.taking(pixCreate(Int32(columns * 8 + 8), Int32(rows * 8 + 8), 1)))
        for row in 0..<rows {
            for column in 0..<columns {
                let box = try #require(boxCreate(Int32(column * 8 + 4), Int32(row * 8 + 4), 4, 4))
                defer {
                    var owned: BoxPointer? = box
                    boxDestroy(&owned)
                }
                #expect(pixSetInRect(page.pointer, box) == 0)
            }
        }
        return page
    }

    @Test("Every square is one mark, on a 1-bit page and on the same page in grey (thresholded at its Otsu split)")
    func countsExactly() throws {
        let binary = try Self.squares(rows: 30, columns: 40)
        #expect(PageMarks.count(binary) == 1_200)
        let grey = try #require(PixImage.taking(pixConvert1To8(nil, binary.pointer, 255, 0)))
        #expect(grey.depth == 8)
        #expect(PageMarks.count(grey) == 1_200)
    }

    @Test("Over the limit is refused with the count and the limit; at the limit, or with no limit, it passes")
    func limit() throws {
        let page = PoemImage(pix: try Self.squares(rows: 10, columns: 10))
        #expect(throws: SnapPoemError.tooManyMarks(path: "specks.png", marks: 100, limit: 99)) {
            try PageMarks.check(page, region: nil, limit: 99, name: "specks.png")
        }
        try PageMarks.check(page, region: nil, limit: 100, name: "specks.png")
        try PageMarks.check(page, region: nil, limit: nil, name: "specks.png")
        // Only the region is counted: its 3 × 4 squares (each one whole inside it).
        let region = BoundingBox(left: 0, top: 0, right: 4 * 8 + 2, bottom: 3 * 8 + 2)
        try PageMarks.check(page, region: region, limit: 12, name: "specks.png")
        #expect(throws: SnapPoemError.tooManyMarks(path: "specks.png", marks: 12, limit: 11)) {
            try PageMarks.check(page, region: region, limit: 11, name: "specks.png")
        }
    }

    @Test("The scanner refuses a page over its limit, naming the file, and reads it under a limit it fits")
    func scannerRefuses() async throws {
        let shared = try await SharedScanner.get()
        var configuration = shared.configuration
        configuration.recognition.markLimit = 200
        let strict = try PoemScanner(configuration: configuration, sharingEnginesWith: shared)
        let path = Fixtures.sample("Lenore.png")
        do {
            _ = try await strict.scan(fileAt: path)
            Issue.record("a page of about 1 400 marks passed a limit of 200")
        } catch {
            guard case .tooManyMarks(let named, let marks, let limit) = error else {
                Issue.record("expected tooManyMarks, got \(error)")
                return
            }
            #expect(named == path)
            #expect(limit == 200)
            #expect(marks > 1_000 && marks < 2_000, "Lenore.png has \(marks) marks")
            #expect(error.description.hasPrefix("\(path): the page has \(marks) separate marks, over the limit of 200;"))
            #expect(error.category == .input)
        }
        // The default limit admits the page, with room to spare.
        #expect(RecognitionOptions.defaultMarkLimit >= 5 * 2_000)
        #expect(try await shared.scan(fileAt: path).page.hasText)
    }
}
