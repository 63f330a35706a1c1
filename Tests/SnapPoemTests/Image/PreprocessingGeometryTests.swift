import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// `PreprocessingGeometry` against Leptonica itself: marks placed on an image are followed
/// through the real scaling, quarter turn and deskew, found again in the result, and mapped
/// back; they must land where they were.
@Suite("Preprocessing geometry: the recognised image's pixels map back to the upright image's")
struct PreprocessingGeometryTests {
    /// Where the marks are put on the 900×600 test image (their centres, in pixels).
    static let marks = [ImagePoint(x: 100.5, y: 80.5), ImagePoint(x: 640.5, y: 150.5), ImagePoint(x: 300.5, y: 500.5)]

    /// A white 900×600 grey image with a 9×9 black square centred on each of `marks`.
    static func markedImage() throws -> PoemImage {
        let image = try #require(PoemImage.filled(width: 900, height: 600))
        let pix = try image.pix.transformed("pixCopy") { pixCopy(nil, $0) }
        try drawMarks(marks, on: pix)
        return PoemImage(pix: pix)
    }

    /// Paints a 9×9 black square centred on each of `marks` into an 8-bit grey image.
    static func drawMarks(_ marks: [ImagePoint], on pix: PixImage) throws {
        for mark in marks {
            let box = try #require(boxCreate(Int32(mark.x - 4.5), Int32(mark.y - 4.5), 9, 9))
            pixSetInRectArbitrary(pix.pointer, box, 0)
            var owned: BoxPointer? = box
            boxDestroy(&owned)
        }
    }

    /// The centres of the dark marks of a grey image, in reading order of their tops.
    static func markCentres(in image: PoemImage) throws -> [ImagePoint] {
        let gray = try ImagePreprocessor.grayscale(image)
        let binary = try #require(gray.pix.attempt { pixThresholdToBinary($0, 128) })
        let boxes = try #require(pixConnComp(binary.pointer, nil, 8))
        defer {
            var owned: BoxaPointer? = boxes
            boxaDestroy(&owned)
        }
        var centres: [ImagePoint] = []
        for index in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            boxaGetBoxGeometry(boxes, index, &x, &y, &width, &height)
            centres.append(ImagePoint(x: Double(x) + Double(width) / 2, y: Double(y) + Double(height) / 2))
        }
        return centres
    }

    @Test(
        "Marks followed through scale, quarter turn and deskew come back within a pixel",
        arguments: [
            (1.0, 0, 0.0), (1.37, 0, 0.0), (0.61, 0, 0.0), (1.0, 90, 0.0), (1.0, 180, 0.0), (1.0, 270, 0.0), (1.0, 0, 4.0),
            (1.0, 0, -3.2), (1.52, 90, 2.5), (0.8, 270, -5.5), (1.25, 180, 6.8),
        ])
    func marksComeBack(scale: Double, rotation: Int, deskew: Double) throws {
        let upright = try Self.markedImage()
        let scaled = try ImagePreprocessor.scaled(upright, by: scale)
        let turned = try ImagePreprocessor.rotated(scaled, clockwiseDegrees: rotation)
        let recognized = try #require(deskew == 0 ? turned : ImagePreprocessor.rotatedForDeskew(turned, angle: deskew))
        let geometry = PreprocessingGeometry(
            uprightWidth: upright.width, uprightHeight: upright.height, scaledWidth: scaled.width, scaledHeight: scaled.height,
            clockwiseQuarterTurns: rotation / 90, deskewAngle: deskew, recognizedWidth: recognized.width,
            recognizedHeight: recognized.height)
        let found = try Self.markCentres(in: recognized)
        try #require(found.count == Self.marks.count, "found \(found.count) marks")
        for mark in Self.marks {
            // The mark that comes back nearest to where it was put.
            let back = found.map(geometry.uprightPoint(fromRecognized:))
            let nearest = try #require(back.min { distance($0, mark) < distance($1, mark) })
            #expect(distance(nearest, mark) <= 1.0, "mark at \(mark) came back at \(nearest)")
            // And the way there, the other direction.
            let there = geometry.recognizedPoint(fromUpright: mark)
            let arrived = try #require(found.min { distance($0, there) < distance($1, there) })
            #expect(distance(arrived, there) <= 1.5, "mark at \(mark) expected at \(there), found at \(arrived)")
        }
    }

    @Test("uprightPoint and recognizedPoint undo each other")
    func roundTrip() {
        let geometry = PreprocessingGeometry(
            uprightWidth: 1697, uprightHeight: 1383, scaledWidth: 2036, scaledHeight: 1660, clockwiseQuarterTurns: 1,
            deskewAngle: -3.4, recognizedWidth: 1757, recognizedHeight: 2131)
        for point in [ImagePoint(x: 0, y: 0), ImagePoint(x: 848.5, y: 691.5), ImagePoint(x: 1697, y: 1383), ImagePoint(x: 12, y: 1300)] {
            let back = geometry.uprightPoint(fromRecognized: geometry.recognizedPoint(fromUpright: point))
            #expect(distance(back, point) < 1e-6, "\(point) → \(back)")
        }
    }

    @Test("The pipeline's report records the scaled size, and its geometry follows what was done")
    func reportRecordsTheScaledSize() throws {
        let upright = try Self.markedImage()
        var options = PreprocessingOptions.minimal
        options.scaling = .maxDimension(700)
        let prepared = try ImagePreprocessor.process(upright, options: options)
        #expect(prepared.report.scaledWidth == 700)
        #expect(prepared.report.scaledHeight == 467)
        let geometry = prepared.report.geometry
        #expect(!geometry.isIdentity)
        for (found, mark) in zip(try Self.markCentres(in: prepared.image), Self.marks) {
            #expect(distance(geometry.uprightPoint(fromRecognized: found), mark) <= 1.0)
        }
        #expect(try ImagePreprocessor.process(upright, options: .minimal).report.geometry.isIdentity)
    }

    @Test("A report saved before the scaled size was recorded decodes with it worked out from the scale factor")
    func olderReportsDecode() throws {
        let json = """
            {"inputWidth": 1000, "inputHeight": 501, "scaleFactor": 1.5, "inverted": false, "flattened": false,
             "rotation": 0, "deskewAngle": 0, "filter": "none", "outputWidth": 1500, "outputHeight": 752, "notes": []}
            """
        let report = try JSONDecoder().decode(PreprocessingReport.self, from: Data(json.utf8))
        #expect(report.scaledWidth == 1500)
        #expect(report.scaledHeight == 752)
    }

    @Test("A box of the recognised image becomes a tilted quadrilateral whose bounds hold it")
    func boxes() {
        let geometry = PreprocessingGeometry(
            uprightWidth: 900, uprightHeight: 600, scaledWidth: 900, scaledHeight: 600, clockwiseQuarterTurns: 0,
            deskewAngle: 5, recognizedWidth: 949, recognizedHeight: 677)
        let box = BoundingBox(left: 300, top: 300, right: 500, bottom: 340)
        let corners = geometry.uprightCorners(of: box)
        #expect(corners.count == 4)
        // Turned by 5°: the top edge is no longer level.
        #expect(abs(corners[0].y - corners[1].y) > 10)
        let bounds = geometry.uprightBounds(of: box)
        for corner in corners {
            #expect(Double(bounds.left) <= corner.x && corner.x <= Double(bounds.right))
            #expect(Double(bounds.top) <= corner.y && corner.y <= Double(bounds.bottom))
        }
        let outside = geometry.uprightBounds(of: BoundingBox(left: -5000, top: -5000, right: -4000, bottom: -4000))
        #expect(outside.width == 0 || outside.height == 0)
    }
}

/// The distance between two points.
func distance(_ a: ImagePoint, _ b: ImagePoint) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}
