import Foundation
import Testing

@testable import SnapPoem

@Suite("The default pipeline on photo-like samples, with real Tesseract")
struct PhotoPipelineTests {
    /// Sample and the highest CER accepted. Plain tesseract on the raw file scores 59–86 %
    /// on the turned, tilted and shadowed ones (SampleImages/README.md, Docs/bench-image.md).
    static let photos: [(file: String, maxCER: Double)] = [
        ("photo-rotated-3deg.jpg", 0.01), ("photo-rotated-5deg.jpg", 0.01), ("photo-rotated-90.png", 0.01),
        ("photo-rotated-180.png", 0.01), ("photo-rotated-270.png", 0.01), ("photo-blurred.jpg", 0.01),
        ("photo-low-resolution.png", 0.01), ("photo-phone-size.jpg", 0.01), ("photo-screenshot.png", 0.04),
        ("photo-uneven-light.jpg", 0.01), ("photo-vignette-shadow.jpg", 0.01), ("photo-coloured.jpg", 0.01),
        ("photo-inverted.png", 0.01), ("photo-inverted-noisy.jpg", 0.04), ("photo-jpeg-artefacts.jpg", 0.01),
        ("photo-low-contrast.png", 0.01),
    ]

    @Test("Each photo reads within its error budget", arguments: photos)
    func readsPhoto(file: String, maxCER: Double) async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: file))
        #expect(rate <= maxCER, "\(file): CER \(rate), \(poem.preprocessingReport)\n\(poem.recognizedText)")
    }

    @Test(
        "Pages turned 90°, 180° and 270° are turned back without asking orientation detection; the report says so",
        arguments: [
            ("photo-rotated-90.png", 270), ("photo-rotated-180.png", 180), ("photo-rotated-270.png", 90),
        ])
    func turnsPagesBack(file: String, rotation: Int) async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        #expect(poem.preprocessingReport.rotation == rotation)
        // Upside down, its lines lie level and read as garbage: read turned 180°. On its side,
        // its lines stand on end and start in line at one end: turned the way that end says.
        // Either way the turned reading is good, so OSD is never asked (no confidence).
        #expect(poem.preprocessingReport.orientationConfidence == nil)
        #expect(poem.page.meanConfidence >= PoemScanner.doubtfulConfidence)
    }

    @Test("The lines' starts say which way a page on its side turns: the aligned end is the left margin")
    func turnFromLineStarts() {
        // Five lines standing on end, 30 px thick, of lengths 300–700 px.
        let lengths = [300, 700, 450, 600, 520]
        let startingAtTop = lengths.enumerated().map { i, length in
            BoundingBox(left: 50 * i, top: 100, right: 50 * i + 30, bottom: 100 + length)
        }
        let startingAtBottom = lengths.enumerated().map { i, length in
            BoundingBox(left: 50 * i, top: 900 - length, right: 50 * i + 30, bottom: 900)
        }
        let justified = lengths.indices.map { i in BoundingBox(left: 50 * i, top: 100, right: 50 * i + 30, bottom: 800) }
        #expect(PageReading.turnFromLineStarts(startingAtTop) == 270)
        #expect(PageReading.turnFromLineStarts(startingAtBottom) == 90)
        #expect(PageReading.turnFromLineStarts(justified) == nil, "both ends in line: nothing to go by")
        #expect(PageReading.turnFromLineStarts(Array(startingAtTop.prefix(2))) == nil, "too few lines")
        let level = startingAtTop.map { BoundingBox(left: $0.top, top: $0.left, right: $0.bottom, bottom: $0.right) }
        #expect(PageReading.turnFromLineStarts(level) == nil, "lines lying level do not stand on end")
    }

    @Test(
        "Clean scans go through untouched, so they read as plain Tesseract reads them",
        arguments: [
            "Lenore.png", "photo-clean.png", "chanson-d-automne.png",
        ])
    func cleanScansUntouched(file: String) async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        let report = poem.preprocessingReport
        #expect(report.scaleFactor == 1 && report.rotation == 0 && report.deskewAngle == 0)
        #expect(!report.flattened && !report.inverted && report.notes.isEmpty)
        #expect(report.orientationConfidence == nil)  // read well at once: no orientation detection
        #expect((poem.recognizedWidth, poem.recognizedHeight) == (report.inputWidth, report.inputHeight))
    }

    @Test("The preprocessed image is kept only when asked for, and is what Tesseract saw")
    func keepsPreprocessedImage() async throws {
        let file = Fixtures.sample("photo-low-resolution.png")
        let plain = try await SharedScanner.get().scan(fileAt: file)
        #expect(plain.preprocessedImage == nil)
        var configuration = ScanConfiguration()
        configuration.keepsPreprocessedImage = true
        let keeping = try await PoemScanner(configuration: configuration).scan(fileAt: file)
        let image = try #require(keeping.preprocessedImage)
        #expect((image.width, image.height) == (keeping.recognizedWidth, keeping.recognizedHeight))
        #expect((image.width, image.height) == (keeping.page.imageWidth, keeping.page.imageHeight))
        let (decoded, _) = try ImageDecoder.decode(data: image.pngData(), name: "saved.png")
        #expect(decoded == image)
    }

    @Test("A pipeline built from the public steps, as Docs/image-pipeline.md shows, reads the tilted page")
    func ownPipeline() async throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-rotated-5deg.jpg"))
        let analysis = ImageAnalysis(measuring: image)
        var step = try ImagePreprocessor.grayscale(image)
        step = try ImagePreprocessor.scaled(step, mode: .automatic)
        if analysis.isLightOnDark { step = try ImagePreprocessor.inverted(step) }
        step = try ImagePreprocessor.flattenedBackground(step, xHeight: 24)
        if let skew = ImagePreprocessor.measureSkew(step), ImagePreprocessor.shouldDeskew(skew) {
            step = try ImagePreprocessor.deskewed(step, angle: skew.angle)
        }
        let detector = try OrientationDetector()
        if let turn = try await detector.detect(step), OrientationDetector.shouldRotate(turn) {
            step = try ImagePreprocessor.rotated(step, clockwiseDegrees: turn.rotation)
        }
        step = try ImagePreprocessor.binarized(step)
        #expect(step.bitsPerPixel == 1)
        let recognizer = try await Recognizer()
        let page = try await recognizer.recognize(step)
        let rate = characterErrorRate(page.text, truth: try Fixtures.groundTruth(for: "photo-rotated-5deg.jpg"))
        #expect(rate <= 0.02, "CER \(rate)")
    }

    @Test("The report travels as JSON")
    func reportIsCodable() async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample("photo-rotated-5deg.jpg"))
        let data = try JSONEncoder().encode(poem.preprocessingReport)
        #expect(try JSONDecoder().decode(PreprocessingReport.self, from: data) == poem.preprocessingReport)
        #expect(abs(poem.preprocessingReport.deskewAngle + 5) < 0.3)
    }
}
