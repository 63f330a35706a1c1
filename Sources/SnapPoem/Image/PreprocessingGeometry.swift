import Foundation

/// A point in an image's pixel coordinates: origin at the top-left corner of the top-left
/// pixel, x to the right, y down; pixel (i, j) covers [i, i + 1) × [j, j + 1).
public struct ImagePoint: Sendable, Equatable, Hashable, Codable {
    /// Distance from the left edge, in pixels.
    public var x: Double
    /// Distance from the top edge, in pixels.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// How the pixels of the image Tesseract saw relate to those of the upright decoded image it
/// was made from, so that a recognised word's box can be shown on the photo.
///
/// Preprocessing changes the geometry in four steps, in this order (see
/// `ImagePreprocessor.process(_:options:)`): scaling to `scaledWidth` × `scaledHeight`
/// (`pixScaleToSize`), the keystone correction of a sheet photographed at an angle (a
/// projective map of its corners onto a rectangle, `keystone`), a clockwise quarter turn
/// (`pixRotateOrth`), and the deskew: the image is centred on a canvas enlarged so that no
/// corner is cut off (`pixEmbedForRotation`) and turned about the canvas's centre
/// (`pixRotate` by area mapping). Every other step (tones, inversion, the cleared surround, a
/// region of interest's mask) keeps each pixel in place, except the dewarping of a curved
/// page, which is not undone. This type undoes the four steps exactly as Leptonica does
/// them; a point maps back to within a pixel of where it was (tested on tilted, turned and
/// keystoned pages).
///
/// A box of the recognised image becomes, on the upright image, a quadrilateral turned by
/// the deskew angle: `uprightCorners(of:)` gives its four corners, `uprightBounds(of:)` the
/// box that encloses them.
public struct PreprocessingGeometry: Sendable, Equatable {
    /// Size of the upright decoded image (the preprocessing's input).
    public var uprightWidth: Int
    /// Height of the upright decoded image.
    public var uprightHeight: Int
    /// Size after the scaling step.
    public var scaledWidth: Int
    /// Height after the scaling step.
    public var scaledHeight: Int
    /// The keystone correction applied after scaling, when one was.
    public var keystone: KeystoneCorrection? {
        didSet { (toScaled, fromScaled) = (keystone?.toScaled, keystone?.fromScaled) }
    }
    /// Clockwise quarter turns applied after scaling and the keystone correction: 0, 1, 2 or 3.
    public var clockwiseQuarterTurns: Int
    /// The deskew rotation, in degrees (`SkewMeasurement`'s sense: positive turns clockwise);
    /// 0 when none.
    public var deskewAngle: Double
    /// Size of the image Tesseract saw.
    public var recognizedWidth: Int
    /// Height of the image Tesseract saw.
    public var recognizedHeight: Int
    /// The keystone correction's two directions, made once from `keystone`.
    private var toScaled: ProjectiveTransform?, fromScaled: ProjectiveTransform?

    /// Creates the geometry of a preprocessing from its parts.
    public init(
        uprightWidth: Int, uprightHeight: Int, scaledWidth: Int, scaledHeight: Int, clockwiseQuarterTurns: Int,
        deskewAngle: Double, recognizedWidth: Int, recognizedHeight: Int, keystone: KeystoneCorrection? = nil
    ) {
        self.uprightWidth = uprightWidth
        self.uprightHeight = uprightHeight
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
        self.clockwiseQuarterTurns = ((clockwiseQuarterTurns % 4) + 4) % 4
        self.deskewAngle = deskewAngle
        self.recognizedWidth = recognizedWidth
        self.recognizedHeight = recognizedHeight
        self.keystone = keystone
        (toScaled, fromScaled) = (keystone?.toScaled, keystone?.fromScaled)
    }

    /// The geometry that `report` records.
    public init(report: PreprocessingReport) {
        self.init(
            uprightWidth: report.inputWidth, uprightHeight: report.inputHeight, scaledWidth: report.scaledWidth,
            scaledHeight: report.scaledHeight, clockwiseQuarterTurns: Int((Double(report.rotation) / 90).rounded()),
            deskewAngle: report.deskewAngle, recognizedWidth: report.outputWidth, recognizedHeight: report.outputHeight,
            keystone: report.keystone)
    }

    /// Whether the geometry changes nothing: every point stays where it is.
    public var isIdentity: Bool {
        scaledWidth == uprightWidth && scaledHeight == uprightHeight && clockwiseQuarterTurns == 0
            && !Self.rotatesForDeskew(deskewAngle) && keystone == nil
    }

    // MARK: - Points

    /// Where a point of the image Tesseract saw lies on the upright image.
    public func uprightPoint(fromRecognized point: ImagePoint) -> ImagePoint {
        scaledBack(unkeystoned(turnedBack(straightenedBack(point))))
    }

    /// Where a point of the upright image lies on the image Tesseract saw: the inverse of
    /// `uprightPoint(fromRecognized:)`.
    public func recognizedPoint(fromUpright point: ImagePoint) -> ImagePoint {
        straightened(turned(keystoned(scaled(point))))
    }

    /// The four corners of a box of the image Tesseract saw, on the upright image, in the
    /// box's own order: top left, top right, bottom right, bottom left. Not clipped.
    public func uprightCorners(of box: BoundingBox) -> [ImagePoint] {
        let left = Double(box.left), top = Double(box.top), right = Double(box.right), bottom = Double(box.bottom)
        return [
            ImagePoint(x: left, y: top), ImagePoint(x: right, y: top), ImagePoint(x: right, y: bottom),
            ImagePoint(x: left, y: bottom),
        ].map(uprightPoint(fromRecognized:))
    }

    /// The smallest box of whole pixels of the upright image that holds the box of the image
    /// Tesseract saw, clipped to the upright image (empty when it lies outside).
    public func uprightBounds(of box: BoundingBox) -> BoundingBox {
        let corners = uprightCorners(of: box)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        func clamp(_ value: Double, _ limit: Int) -> Int {
            guard value.isFinite else { return 0 }
            return Int(min(max(value, 0), Double(limit)))
        }
        let left = clamp((xs.min() ?? 0).rounded(.down), uprightWidth)
        let top = clamp((ys.min() ?? 0).rounded(.down), uprightHeight)
        return BoundingBox(
            left: left, top: top, right: max(left, clamp((xs.max() ?? 0).rounded(.up), uprightWidth)),
            bottom: max(top, clamp((ys.max() ?? 0).rounded(.up), uprightHeight)))
    }

    // MARK: - The four steps

    /// The size of the image before the quarter turn: the keystone's rectangle, or the
    /// scaled size.
    private var unturnedSize: (width: Int, height: Int) {
        keystone.map { ($0.width, $0.height) } ?? (scaledWidth, scaledHeight)
    }

    /// The size of the image before the deskew: the unturned size, sides swapped by an odd
    /// number of quarter turns.
    private var turnedSize: (width: Int, height: Int) {
        let (width, height) = unturnedSize
        return clockwiseQuarterTurns % 2 == 0 ? (width, height) : (height, width)
    }

    /// The deskew as Leptonica does it: the turned image sits at `offset` on a canvas of the
    /// recognised size (`pixEmbedForRotation`: `(canvas − image) / 2`, rounded down), and is
    /// rotated about the canvas pixel `(width / 2, height / 2)` (`rotateAMGrayLow`, integer
    /// halves). Nil when no deskew was done.
    private var deskew: (offsetX: Double, offsetY: Double, centreX: Double, centreY: Double, sine: Double, cosine: Double)? {
        guard Self.rotatesForDeskew(deskewAngle) else { return nil }
        let (width, height) = turnedSize
        let radians = Double(Self.deskewRadians(deskewAngle))
        return (
            Double((recognizedWidth - width) / 2), Double((recognizedHeight - height) / 2), Double(recognizedWidth / 2),
            Double(recognizedHeight / 2), sin(radians), cos(radians)
        )
    }

    /// From the recognised image to the turned one, before its deskew.
    private func straightenedBack(_ point: ImagePoint) -> ImagePoint {
        guard let deskew else { return point }
        // Leptonica samples destination pixel index (j, i) from the source position below, in
        // pixel indices; a point's index position is its coordinate less half a pixel.
        let dx = point.x - 0.5 - deskew.centreX, dy = point.y - 0.5 - deskew.centreY
        let sourceX = deskew.centreX + dx * deskew.cosine + dy * deskew.sine
        let sourceY = deskew.centreY - dx * deskew.sine + dy * deskew.cosine
        return ImagePoint(x: sourceX + 0.5 - deskew.offsetX, y: sourceY + 0.5 - deskew.offsetY)
    }

    /// From the turned image, before its deskew, to the recognised one.
    private func straightened(_ point: ImagePoint) -> ImagePoint {
        guard let deskew else { return point }
        let sourceX = point.x + deskew.offsetX - 0.5 - deskew.centreX
        let sourceY = point.y + deskew.offsetY - 0.5 - deskew.centreY
        // The inverse of the rotation in `straightenedBack`.
        let dx = sourceX * deskew.cosine - sourceY * deskew.sine
        let dy = sourceX * deskew.sine + sourceY * deskew.cosine
        return ImagePoint(x: deskew.centreX + dx + 0.5, y: deskew.centreY + dy + 0.5)
    }

    /// From the turned image to the unturned one (undoing `pixRotateOrth`'s clockwise turns).
    private func turnedBack(_ point: ImagePoint) -> ImagePoint {
        let width = Double(unturnedSize.width), height = Double(unturnedSize.height)
        switch clockwiseQuarterTurns {
        case 1: return ImagePoint(x: point.y, y: height - point.x)
        case 2: return ImagePoint(x: width - point.x, y: height - point.y)
        case 3: return ImagePoint(x: width - point.y, y: point.x)
        default: return point
        }
    }

    /// From the unturned image to the turned one.
    private func turned(_ point: ImagePoint) -> ImagePoint {
        let width = Double(unturnedSize.width), height = Double(unturnedSize.height)
        switch clockwiseQuarterTurns {
        case 1: return ImagePoint(x: height - point.y, y: point.x)
        case 2: return ImagePoint(x: width - point.x, y: height - point.y)
        case 3: return ImagePoint(x: point.y, y: width - point.x)
        default: return point
        }
    }

    /// From the keystone's rectangle to the scaled image.
    private func unkeystoned(_ point: ImagePoint) -> ImagePoint {
        toScaled.map { $0(point) } ?? point
    }

    /// From the scaled image to the keystone's rectangle.
    private func keystoned(_ point: ImagePoint) -> ImagePoint {
        fromScaled.map { $0(point) } ?? point
    }

    /// From the scaled image to the upright one.
    private func scaledBack(_ point: ImagePoint) -> ImagePoint {
        ImagePoint(
            x: point.x * Double(uprightWidth) / Double(max(1, scaledWidth)),
            y: point.y * Double(uprightHeight) / Double(max(1, scaledHeight)))
    }

    /// From the upright image to the scaled one.
    private func scaled(_ point: ImagePoint) -> ImagePoint {
        ImagePoint(
            x: point.x * Double(scaledWidth) / Double(max(1, uprightWidth)),
            y: point.y * Double(scaledHeight) / Double(max(1, uprightHeight)))
    }

    // MARK: - The deskew's angle, as Leptonica gets it

    /// The angle in radians exactly as it is handed to `pixRotate` (a C `float`).
    static func deskewRadians(_ degrees: Double) -> Float {
        Float(degrees * Double.pi / 180)
    }

    /// Whether `pixRotate` rotates at all by `degrees`: below 0.001 radians (≈ 0.057°) it
    /// returns the image itself (`MinAngleToRotate` in Leptonica's rotate.c).
    static func rotatesForDeskew(_ degrees: Double) -> Bool {
        degrees.isFinite && abs(deskewRadians(degrees)) >= 0.001
    }
}

extension PreprocessingReport {
    /// How the pixels of the image Tesseract saw map back to the upright input's.
    public var geometry: PreprocessingGeometry { PreprocessingGeometry(report: self) }
}
