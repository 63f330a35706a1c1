import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// Issue 9: a sheet photographed on a dark table. Its straight edges must not decide the
/// tilt, and the table must not reach Tesseract.
@Suite("A sheet on a table: tilt measured on the text, the table cleared")
struct PageEdgeTests {
    @Test(
        "The tilt of text inside a straight sheet edge is the text's",
        arguments: [("photo-page-edge-2.5deg.jpg", -2.5), ("photo-page-edge-3.5deg.jpg", -3.5), ("photo-phone-size.jpg", -1.0)])
    func tiltOfText(file: String, angle: Double) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let skew = try #require(ImagePreprocessor.measureSkew(image))
        #expect(abs(skew.angle - angle) <= 0.3, "\(file): \(skew)")
        #expect(ImagePreprocessor.shouldDeskew(skew))
        #expect(skew.letterCount > 300, "\(file): \(skew)")
    }

    @Test("Over all the ink the sheet's edges win; over the letters the text does, and the edges are counted as ignored")
    func edgesOutvoteText() throws {
        let render = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/the-tyger.png")).image
        let photo = try TiltedPage.make(render, clockwiseDegrees: 2.5, on: .darkTable)
        let xHeight = try #require(ImageAnalysis(measuring: photo).xHeight)
        // The photo thresholded as it is: the table black, the sheet's straight edges its border.
        let binary = try #require(photo.pix.otsuBinarized())
        let overAllInk = try #require(ImagePreprocessor.measureSkew(ofBinary: binary))
        let overLetters = try #require(ImagePreprocessor.measureSkew(of: MeasuredCopy(binary: binary, xHeight: xHeight)))
        #expect(abs(overAllInk.angle) < 0.5, "the edges: \(overAllInk)")
        #expect(abs(overLetters.angle + 2.5) <= 0.3, "the letters: \(overLetters)")
        #expect(overLetters.ignoredShapeCount >= 1 && overLetters.letterCount > 200)
    }

    static let withTable = ["photo-page-edge-2.5deg.jpg", "photo-page-edge-3.5deg.jpg", "photo-phone-size.jpg"]
    static let withoutTable = [
        "Lenore.png", "photo-clean.png", "photo-uneven-light.jpg", "photo-vignette-shadow.jpg", "photo-inverted.png",
        "photo-inverted-noisy.jpg", "photo-screenshot.png", "blank.png", "illustration.png", "columns.png", "photo-rotated-5deg.jpg",
    ]

    @Test(
        "A dark table around the sheet is found; shadows, vignettes, dark cards and plain pages are not tables",
        arguments: withTable + withoutTable)
    func findsTable(file: String) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let share = ImageAnalysis(measuring: image).surroundShare
        if Self.withTable.contains(file) {
            #expect(share > 0.15 && share < 0.5, "\(file): \(share)")
        } else {
            #expect(share == 0, "\(file): \(share)")
        }
    }

    @Test("The table is painted in the paper's tone and the page is flattened; the report says how much")
    func clearsTable() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-page-edge-2.5deg.jpg"))
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false))
        #expect(prepared.report.clearedSurroundShare > 0.15)
        #expect(prepared.report.flattened)
        // The corners were dark wood (grey ≈ 45); now they are as light as the paper.
        let gray = prepared.image.pix
        for (x, y) in [(5, 5), (gray.width - 6, 5), (5, gray.height - 6), (gray.width - 6, gray.height - 6)] {
            var value: UInt32 = 0
            pixGetPixel(gray.pointer, Int32(x), Int32(y), &value)
            #expect(value > 150, "corner \(x),\(y): \(value)")
        }
        var options = PreprocessingOptions(detectsOrientation: false)
        options.clearsSurround = false
        #expect(try ImagePreprocessor.process(image, options: options).report.clearedSurroundShare == 0)
    }

    @Test("A table with grain is a table: found, the text measured on the sheet, the grain never read again")
    func grainyTable() async throws {
        // A photo from the randomised corpus (see SampleImages/README.md): its table's grain,
        // flattened and thresholded, is a crowd of letter-sized specks in rows. They kept
        // the table from being found, halved the x-height (the page was enlarged four
        // times over), and were read again one region at a time by the coverage check.
        let file = "photo-grainy-table.jpg"
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let analysis = ImageAnalysis(measuring: image)
        #expect(analysis.surroundShare > 0.4, "the table was not found: \(analysis)")
        let sheet = try #require(try image.cropped(to: BoundingBox(left: 380, top: 160, right: 850, bottom: 1120)))
        let onSheet = try #require(ImageAnalysis(measuring: sheet).xHeight)
        let xHeight = try #require(analysis.xHeight)
        #expect(abs(xHeight - onSheet) <= 0.15 * onSheet, "x-height \(xHeight), on the sheet alone \(onSheet)")
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        #expect(poem.coverage?.rereadRegions.isEmpty == true, "\(String(describing: poem.coverage))")
        let error = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: file))
        #expect(error <= 0.01, "CER \(error): \(poem.recognizedText)")
    }

    @Test("A page darker toward its edge on a grainy table keeps its line ends, and reads as the poem")
    func shadedSheetKeepsLineEnds() async throws {
        let render = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/the-tyger.png")).image
        let photo = try TiltedPage.onGrainyTable(render, shading: 0.75)
        let truth = try Fixtures.groundTruth(for: "tilt/the-tyger.png")
        let page = try await SharedScanner.get().scan(photo, name: "shaded sheet")
        let error = characterErrorRate(page.recognizedText, truth: truth)
        #expect(error <= 0.02, "CER \(error): \(page.recognizedText)")
    }

    @Test("A small sheet on a wide table (the table nine tenths of the photo) is a sheet on a table")
    func smallSheet() async throws {
        let render = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/the-tyger.png")).image
        let photo = try TiltedPage.onGrainyTable(render, table: 1)
        let share = ImageAnalysis(measuring: photo).surroundShare
        #expect(share > 0.8 && share < ImageAnalysis.largestSurround, "\(share)")
        let poem = try await SharedScanner.get().scan(photo, name: "small sheet")
        let error = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "tilt/the-tyger.png"))
        #expect(error <= 0.02, "CER \(error): \(poem.recognizedText)")
    }
}
