import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// Issue 20: where a sheet's outline is visible, its keystone perspective is undone. A sheet
/// photographed from one side has lines that fan out; no deskew angle levels them all.
@Suite("Keystone: a sheet photographed at an angle is mapped onto a rectangle")
struct KeystoneTests {
    /// `SampleImages/photo-keystone.jpg` (make_samples.py): the Lenore excerpt on a dark
    /// table, its right edge 18 % shorter than its left. Measured: CER 0 corrected, 0.096
    /// with `--no-keystone`, 0.19 for the tesseract CLI.
    static let sample = "photo-keystone.jpg"

    @Test("The keystoned sample reads whole, its names replaced; without the correction it does not")
    func keystonedSampleReads() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.replace: ["Lenore=Alex"]])
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample(Self.sample))
        let truth = try Fixtures.groundTruth(for: Self.sample)
        let rate = characterErrorRate(poem.recognizedText, truth: truth)
        #expect(rate <= 0.005, "CER \(rate)")
        #expect(poem.text.components(separatedBy: "Alex").count - 1 == 2, "\(poem.text)")
        #expect(!poem.text.contains("Lenore"))
        let keystone = try #require(poem.preprocessingReport.keystone, "no keystone correction")
        #expect(keystone.edgeRatio > 1.15, "\(keystone)")
        // Measured again after the correction: the print is level on the sheet.
        #expect(abs(poem.preprocessingReport.deskewAngle) < 0.5, "\(poem.preprocessingReport.deskewAngle)")
        let json = try #require(JSONPoemDocument(poem).image.preprocessing.keystone)
        #expect(json.corners.count == 4)
        // The sheet's left edge is its near one: taller in the photo than the right.
        #expect(json.corners[3][1] - json.corners[0][1] > json.corners[2][1] - json.corners[1][1])

        var without = ScanConfiguration()
        try without.apply([.noKeystone: [""]])
        #expect(without.preprocessing.correctsKeystone == false)
        let plain = try await PoemScanner(configuration: without, sharingEnginesWith: try await SharedScanner.get())
            .scan(fileAt: Fixtures.sample(Self.sample))
        #expect(plain.preprocessingReport.keystone == nil)
        let plainRate = characterErrorRate(plain.recognizedText, truth: truth)
        #expect(plainRate > rate + 0.02, "without the correction: CER \(plainRate), with: \(rate)")
    }

    @Test(
        "Sheets seen square on, cut off by the frame, or with no table around are left alone",
        arguments: ["Lenore.png", "photo-clean.png", "photo-page-edge-2.5deg.jpg", "photo-rotated-5deg.jpg", "curl/lenore-lift-100.png"])
    func leftAlone(name: String) async throws {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        #expect(poem.preprocessingReport.keystone == nil, "\(name): \(String(describing: poem.preprocessingReport.keystone))")
    }

    /// A 1200×900 grey image: a dark table (60) with a light sheet (235) whose corners are
    /// `sheet`, and 9×9 black marks centred on `marks`.
    static let sheet = [
        ImagePoint(x: 150, y: 90), ImagePoint(x: 1010, y: 180), ImagePoint(x: 1010, y: 720), ImagePoint(x: 150, y: 810),
    ]
    static let marks = [
        ImagePoint(x: 300.5, y: 250.5), ImagePoint(x: 880.5, y: 300.5), ImagePoint(x: 560.5, y: 450.5),
        ImagePoint(x: 320.5, y: 700.5), ImagePoint(x: 900.5, y: 640.5),
    ]

    static func sheetOnTable(where onSheet: (ImagePoint) -> Bool = { inside($0, sheet) }) throws -> PoemImage {
        let image = try #require(PoemImage.filled(width: 1200, height: 900, gray: 60))
        let pix = try image.pix.transformed("pixCopy") { pixCopy(nil, $0) }
        for y in 0..<900 {
            for x in 0..<1200 where onSheet(ImagePoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
                pixSetPixel(pix.pointer, Int32(x), Int32(y), 235)
            }
        }
        try PreprocessingGeometryTests.drawMarks(marks, on: pix)
        return PoemImage(pix: pix)
    }

    /// Whether `point` lies inside the convex quadrilateral `corners` (clockwise on screen).
    static func inside(_ point: ImagePoint, _ corners: [ImagePoint]) -> Bool {
        corners.indices.allSatisfy { index in
            let a = corners[index], b = corners[(index + 1) % corners.count]
            return (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x) >= 0
        }
    }

    @Test("The outline is found within a few pixels, and marks mapped back through the correction land where they were")
    func marksComeBack() throws {
        let upright = try Self.sheetOnTable()
        var options = PreprocessingOptions.minimal
        options.clearsSurround = true
        options.correctsKeystone = true
        options.deskews = true
        let prepared = try ImagePreprocessor.process(upright, options: options)
        let keystone = try #require(prepared.report.keystone, "no keystone correction")
        for (found, corner) in zip(keystone.corners, Self.sheet) {
            #expect(distance(found, corner) <= 2.5, "corner \(corner) found at \(found)")
        }
        #expect(abs(keystone.edgeRatio - 720.0 / 540) < 0.02, "\(keystone.edgeRatio)")
        #expect(prepared.image.width == keystone.width && prepared.image.height == keystone.height)

        let geometry = prepared.report.geometry
        #expect(!geometry.isIdentity)
        // The page was straightened: the sheet's true corners land on the image's corners.
        let imageCorners = [
            ImagePoint(x: 0, y: 0), ImagePoint(x: Double(keystone.width), y: 0),
            ImagePoint(x: Double(keystone.width), y: Double(keystone.height)), ImagePoint(x: 0, y: Double(keystone.height)),
        ]
        for (corner, target) in zip(Self.sheet, imageCorners) {
            let mapped = geometry.recognizedPoint(fromUpright: corner)
            #expect(distance(mapped, target) <= 3, "\(corner) → \(mapped), not \(target)")
        }
        let centres = try PreprocessingGeometryTests.markCentres(in: prepared.image)
        #expect(centres.count == Self.marks.count, "\(centres)")
        for mark in Self.marks {
            let nearest = centres.map(geometry.uprightPoint(fromRecognized:)).min { distance($0, mark) < distance($1, mark) }
            #expect(nearest.map { distance($0, mark) } ?? .infinity <= 1.5, "\(mark) came back at \(String(describing: nearest))")
        }
        for point in [ImagePoint(x: 0, y: 0), ImagePoint(x: 400, y: 300), ImagePoint(x: 1000, y: 700)] {
            let back = geometry.uprightPoint(fromRecognized: geometry.recognizedPoint(fromUpright: point))
            #expect(distance(back, point) < 1e-6, "\(point) → \(back)")
        }
    }

    @Test("A sheet with a curled edge, or cut off by the frame, is not corrected")
    func notASheetsOutline() throws {
        var options = PreprocessingOptions.minimal
        options.clearsSurround = true
        options.correctsKeystone = true
        // The top edge of a book's page curls up toward the spine (the right), by 90 px over
        // the right half, as on the held-out book photos (edge residual 1.3–1.6 there).
        let curled = try Self.sheetOnTable { point in
            let toward = min(1, max(0, ((point.x - 150) / 860 - 0.5) / 0.5))
            let top = 90 + (180 - 90) * (point.x - 150) / 860 + 90 - 90 * toward * toward
            return Self.inside(point, Self.sheet) && point.y >= top
        }
        #expect(try ImagePreprocessor.process(curled, options: options).report.keystone == nil)
        // Turned down for its curled edge, not for want of an outline.
        let curledMask = try #require(ImageAnalysis.measure(curled.pix).measured?.surround)
        let curledOutline = try #require(SheetOutline(inSurround: curledMask))
        #expect(curledOutline.worstEdgeResidual > ImagePreprocessor.straightestEdgeResidual, "\(curledOutline)")
        // The same keystoned sheet running off the right of the picture.
        let cut = try Self.sheetOnTable { point in
            Self.inside(ImagePoint(x: point.x - 300, y: point.y), Self.sheet)
        }
        #expect(try ImagePreprocessor.process(cut, options: options).report.keystone == nil)
        // And the uncut one is corrected, so that the two above test the edges, not the test.
        #expect(try ImagePreprocessor.process(try Self.sheetOnTable(), options: options).report.keystone != nil)
    }

    @Test("A sheet seen square on has an outline, and is left to the deskew")
    func squareOnSheet() throws {
        // photo-page-edge-2.5deg.jpg: a sheet seen square on, its text tilted inside it.
        let image = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-page-edge-2.5deg.jpg")).image
        let gray = try ImagePreprocessor.grayscale(image)
        if let mask = ImageAnalysis.measure(gray.pix).measured?.surround, let outline = SheetOutline(inSurround: mask) {
            #expect(ImagePreprocessor.cornerError(outline.corners) < ImagePreprocessor.leastKeystoneCornerError)
        }
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions())
        #expect(prepared.report.keystone == nil)
        #expect(prepared.report.deskewAngle != 0)
    }

    @Test("A corrected page turned upside down afterwards maps its marks back through both steps")
    func correctedThenTurned() throws {
        var options = PreprocessingOptions.minimal
        options.clearsSurround = true
        options.correctsKeystone = true
        let stage = try ImagePreprocessor.start(try Self.sheetOnTable(), options: options)
        #expect(stage.prepared.report.keystone != nil)
        let turned = try ImagePreprocessor.finish(stage, turn: PageOrientation(rotation: 180, confidence: 10), applying: true)
        #expect(turned.report.rotation == 180)
        let geometry = turned.report.geometry
        let centres = try PreprocessingGeometryTests.markCentres(in: turned.image)
        #expect(centres.count == Self.marks.count, "\(centres)")
        for mark in Self.marks {
            let nearest = centres.map(geometry.uprightPoint(fromRecognized:)).min { distance($0, mark) < distance($1, mark) }
            #expect(nearest.map { distance($0, mark) } ?? .infinity <= 1.5, "\(mark) came back at \(String(describing: nearest))")
        }
    }

    @Test("Masks with no sheet in them give no outline", arguments: ["all table", "no table", "tiny", "sliver"])
    func hostileMasks(kind: String) throws {
        let (width, height) = kind == "tiny" ? (12, 12) : (200, 150)
        let mask = try #require(PixImage.taking(pixCreate(Int32(width), Int32(height), 1)))
        switch kind {
        case "all table", "tiny": pixSetAll(mask.pointer)
        case "sliver":
            pixSetAll(mask.pointer)
            let box = try #require(boxCreate(20, 70, 160, 1))
            pixClearInRect(mask.pointer, box)
            var owned: BoxPointer? = box
            boxDestroy(&owned)
        default: break
        }
        #expect(SheetOutline(inSurround: mask) == nil)
    }

    @Test("With the correction off, and with a region of interest, the sheet is kept as it is")
    func switchedOff() async throws {
        var options = PreprocessingOptions.minimal
        options.clearsSurround = true
        let prepared = try ImagePreprocessor.process(try Self.sheetOnTable(), options: options)
        #expect(prepared.report.keystone == nil)
        #expect(prepared.image.width == 1200 && prepared.image.height == 900)

        var configuration = ScanConfiguration()
        try configuration.apply([.region: ["0,0,2000,2400"]])
        let poem = try await PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
            .scan(fileAt: Fixtures.sample(Self.sample))
        #expect(poem.preprocessingReport.keystone == nil)
    }

    @Test("A projective transform maps its four points exactly, and refuses three in a line")
    func projectiveTransform() throws {
        let square = [ImagePoint(x: 0, y: 0), ImagePoint(x: 100, y: 0), ImagePoint(x: 100, y: 100), ImagePoint(x: 0, y: 100)]
        let transform = try #require(ProjectiveTransform(mapping: square, to: Self.sheet))
        for (from, to) in zip(square, Self.sheet) {
            #expect(distance(transform(from), to) < 1e-6)
        }
        let inLine = [ImagePoint(x: 0, y: 0), ImagePoint(x: 50, y: 50), ImagePoint(x: 100, y: 100), ImagePoint(x: 0, y: 100)]
        #expect(ProjectiveTransform(mapping: inLine, to: Self.sheet) == nil)
    }

    @Test("Options saved before the keystone correction existed decode with it on")
    func olderOptionsDecode() throws {
        var encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(PreprocessingOptions())) as? [String: Any]
        encoded?.removeValue(forKey: "correctsKeystone")
        let data = try JSONSerialization.data(withJSONObject: try #require(encoded))
        #expect(try JSONDecoder().decode(PreprocessingOptions.self, from: data).correctsKeystone)
    }
}
