import CTesseract
import Foundation

/// What the keystone correction did to a sheet photographed at an angle on a table: the
/// sheet's four corners, found from its outline, and the rectangle they were mapped onto
/// (`ImagePreprocessor.keystoneCorrected`).
public struct KeystoneCorrection: Sendable, Equatable, Codable {
    /// The sheet's corners in the scaled image (after the scaling step, before any quarter
    /// turn), in the order of the image's top left, top right, bottom right, bottom left
    /// (for a sheet lying upside down on the table, its own bottom right comes first).
    public var corners: [ImagePoint]
    /// Width of the rectangle the sheet was mapped onto: the image's width after this step.
    public var width: Int
    /// Height of that rectangle.
    public var height: Int
    /// How far the outline was from a rectangle seen square on: the longer of two opposite
    /// edges divided by the shorter, for the pair where that is larger (1 for a rectangle).
    public var edgeRatio: Double

    /// Creates a record of a correction.
    public init(corners: [ImagePoint], width: Int, height: Int, edgeRatio: Double) {
        self.corners = corners
        self.width = width
        self.height = height
        self.edgeRatio = edgeRatio
    }

    /// The rectangle's corners, in the order of `corners`.
    var rectangle: [ImagePoint] {
        [
            ImagePoint(x: 0, y: 0), ImagePoint(x: Double(width), y: 0),
            ImagePoint(x: Double(width), y: Double(height)), ImagePoint(x: 0, y: Double(height)),
        ]
    }

    /// From the corrected image's points to the scaled image's.
    var toScaled: ProjectiveTransform? { ProjectiveTransform(mapping: rectangle, to: corners) }
    /// From the scaled image's points to the corrected image's.
    var fromScaled: ProjectiveTransform? { ProjectiveTransform(mapping: corners, to: rectangle) }
}

/// Keystone correction: a sheet photographed at an angle is a quadrilateral whose far edge
/// is shorter than its near one, and its lines of text fan out instead of lying parallel. No
/// single deskew angle levels them, and Tesseract then merges or cuts lines (measured on a
/// sonnet seen from one side, its right edge 15 % shorter than its left: CER 0.12 without
/// the correction; BENCHMARKS.md). Where the sheet's whole outline is visible against a
/// darker table (`ImageAnalysis`'s surround), the four edges are fitted with straight lines
/// (`SheetOutline`) and the quadrilateral they make is mapped onto a rectangle by a
/// projective transformation (Leptonica's `pixProjectiveGray`, linear interpolation). The
/// text is then measured again, and a tilt of the print on the sheet deskewed as on any page.
///
/// The correction is left out when the outline is nearly a rectangle already (a sheet seen
/// square on, perhaps turned: the deskew levels that without resampling twice), when an edge
/// is not straight (the curled page of a book: the dewarper is for that), or when the sheet
/// is cut off by the photograph's frame.
extension ImagePreprocessor {
    /// Below this `KeystoneCorrection.edgeRatio`, and with every corner within
    /// `leastKeystoneCornerError` of a right angle, the sheet is left as it is.
    public static let leastKeystoneEdgeRatio = 1.03
    /// See `leastKeystoneEdgeRatio`, in degrees.
    public static let leastKeystoneCornerError = 2.0
    /// The most an edge's pixels may stray from a straight line, root mean square, in the
    /// surround mask's pixels (about a quarter of the measuring copy's): a flat sheet's edges
    /// measure about 0.3 (the pixels' own quantisation), the curled edges of the held-out
    /// book photos 1.3–1.6.
    static let straightestEdgeResidual = 1.0

    /// The image with the photographed sheet that `surround` (the table, a 1-bit mask at any
    /// scale) frames mapped onto a rectangle, and a record of the mapping; nil when there is
    /// no such sheet or no need (see above). New pixels outside the sheet are `tone`.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate an image.
    static func keystoneCorrected(
        _ image: PoemImage, surround: PixImage, tone: UInt8
    ) throws(SnapPoemError) -> (image: PoemImage, correction: KeystoneCorrection)? {
        guard let outline = SheetOutline(inSurround: surround), outline.worstEdgeResidual <= straightestEdgeResidual else {
            return nil
        }
        // Leptonica's background map, from which the mask is made, samples every fourth pixel
        // of the measuring copy and then repeats its last column and row
        // (`pixGetBackgroundGrayMapMorph`, `pixExtendByReplication`): the mask is one pixel
        // wider and taller than a quarter of the copy, and its pixel j stands for the copy's
        // pixel 4j, half a mask pixel before the middle of the four it covers.
        let scaleX = Double(image.width) / Double(max(1, surround.width - 1))
        let scaleY = Double(image.height) / Double(max(1, surround.height - 1))
        let corners = outline.corners.map { ImagePoint(x: ($0.x - 0.5) * scaleX, y: ($0.y - 0.5) * scaleY) }
        func length(_ a: Int, _ b: Int) -> Double {
            let dx = corners[b].x - corners[a].x, dy = corners[b].y - corners[a].y
            return (dx * dx + dy * dy).squareRoot()
        }
        let top = length(0, 1), right = length(1, 2), bottom = length(2, 3), left = length(3, 0)
        guard min(top, right, bottom, left) >= 16 else { return nil }
        let edgeRatio = max(max(top, bottom) / min(top, bottom), max(left, right) / min(left, right))
        guard edgeRatio >= leastKeystoneEdgeRatio || cornerError(corners) >= leastKeystoneCornerError else { return nil }

        // The rectangle keeps the longer edge of each pair, so that the far side of the sheet
        // is enlarged to the near side's resolution, but never more pixels than the image had.
        // Its proportions are those edges', not the sheet's own: a sheet tilted away from the
        // camera is also foreshortened in depth, and comes out that much squatter (which
        // Tesseract does not mind; finding the true ratio needs the camera's focal length).
        var width = max(top, bottom), height = max(left, right)
        let shrink = min(1, (Double(image.width * image.height) / (width * height)).squareRoot())
        width = min(Double(PreprocessingOptions.tesseractMaxSide), (width * shrink).rounded())
        height = min(Double(PreprocessingOptions.tesseractMaxSide), (height * shrink).rounded())
        let correction = KeystoneCorrection(corners: corners, width: Int(width), height: Int(height), edgeRatio: edgeRatio)

        // Leptonica samples each destination pixel index (j, i) from the source position the
        // coefficients give, in pixel indices: a point's index position is its coordinate
        // less half a pixel.
        let indexRectangle = correction.rectangle.map { ImagePoint(x: $0.x - 0.5, y: $0.y - 0.5) }
        let indexCorners = corners.map { ImagePoint(x: $0.x - 0.5, y: $0.y - 0.5) }
        guard let sampling = ProjectiveTransform(mapping: indexRectangle, to: indexCorners) else { return nil }
        let gray = try grayscale(image)
        // pixProjectiveGray makes an image of its input's size: the input gets room for the
        // rectangle first when the rectangle is larger.
        let extraWidth = max(0, correction.width - gray.width), extraHeight = max(0, correction.height - gray.height)
        let canvas =
            extraWidth + extraHeight == 0
            ? gray.pix
            : try gray.pix.transformed("pixAddBorderGeneral") {
                pixAddBorderGeneral($0, 0, Int32(extraWidth), 0, Int32(extraHeight), UInt32(tone))
            }
        var coefficients = sampling.coefficients.map { Float($0) }
        let warped = try coefficients.withUnsafeMutableBufferPointer { (buffer) throws(SnapPoemError) in
            try canvas.transformed("pixProjectiveGray") { pixProjectiveGray($0, buffer.baseAddress, tone) }
        }
        let cropped =
            warped.width == correction.width && warped.height == correction.height
            ? warped
            : try warped.transformed("pixClipRectangle") { pix in
                guard let box = boxCreate(0, 0, Int32(correction.width), Int32(correction.height)) else { return nil }
                var owned: BoxPointer? = box
                defer { boxDestroy(&owned) }
                return pixClipRectangle(pix, box, nil)
            }
        return (PoemImage(pix: cropped), correction)
    }

    /// The greatest departure of the quadrilateral's corner angles from 90°, in degrees.
    static func cornerError(_ corners: [ImagePoint]) -> Double {
        corners.indices.map { index in
            let corner = corners[index], next = corners[(index + 1) % 4], previous = corners[(index + 3) % 4]
            let ax = next.x - corner.x, ay = next.y - corner.y, bx = previous.x - corner.x, by = previous.y - corner.y
            let angle = atan2(abs(ax * by - ay * bx), ax * bx + ay * by) * 180 / .pi
            return abs(angle - 90)
        }.max() ?? 0
    }
}
