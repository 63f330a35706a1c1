/// What to do to a decoded image before recognition. The defaults are the pipeline that
/// measured best on the sample photos (see `Docs/image-pipeline.md`).
public struct PreprocessingOptions: Sendable, Equatable, Codable {
    /// How to size the image. Default: `.automatic` (text brought to x-height ≈ 24 px).
    public var scaling: ScalingMode
    /// The tone filter. Default: `.flatten`.
    public var filter: ImageFilter
    /// Detect light text on a dark ground and invert it to dark on light. Default: on.
    public var invertsLightText: Bool
    /// Detect a page turned 90°, 180° or 270° with Tesseract's orientation detection (OSD)
    /// and turn it upright. Needs `osd.traineddata`; only `PoemScanner` and
    /// `PoemScanner` can run it, when a first reading is doubtful. Default: on.
    public var detectsOrientation: Bool
    /// Measure a small tilt of the text lines (up to ±`ImagePreprocessor.maximumSkew`°) and
    /// rotate it away. Default: on.
    public var deskews: Bool
    /// Paint white the dark surround of a photographed sheet (the table it lies on) before
    /// the other steps; see `ImagePreprocessor.clearedSurround`. Default: on.
    public var clearsSurround: Bool = true
    /// Measure how curved the text lines are (a page photographed in an open book) and
    /// flatten them with Leptonica's dewarper when they are (`ImagePreprocessor.dewarped`).
    /// Default: on.
    public var dewarps: Bool = true
    /// Map a sheet photographed at an angle (its whole outline visible against a darker
    /// table) onto a rectangle, undoing the keystone perspective
    /// (`ImagePreprocessor.keystoneCorrected`). Default: on.
    public var correctsKeystone: Bool = true
    /// The most pixels the preprocessed image may have; larger results are scaled down and
    /// the report says so. Default 36 megapixels.
    public var maxOutputPixels: Int

    /// The longest side Tesseract accepts: it refuses images with a side over 32767 pixels.
    public static let tesseractMaxSide = 32767

    /// Creates preprocessing options; `maxDimension` sizes must be at least 16 px and
    /// `maxOutputPixels` at least 65 536.
    public init(
        scaling: ScalingMode = .automatic,
        filter: ImageFilter = .flatten,
        invertsLightText: Bool = true,
        detectsOrientation: Bool = true,
        deskews: Bool = true,
        maxOutputPixels: Int = 36_000_000,
        clearsSurround: Bool = true,
        dewarps: Bool = true,
        correctsKeystone: Bool = true
    ) {
        if case .maxDimension(let side) = scaling {
            precondition(side >= 16, "maxDimension must be at least 16 pixels")
        }
        precondition(maxOutputPixels >= 65_536, "maxOutputPixels must be at least 65536")
        self.scaling = scaling
        self.filter = filter
        self.invertsLightText = invertsLightText
        self.detectsOrientation = detectsOrientation
        self.deskews = deskews
        self.clearsSurround = clearsSurround
        self.dewarps = dewarps
        self.correctsKeystone = correctsKeystone
        self.maxOutputPixels = maxOutputPixels
    }

    /// The original iOS app's pipeline, as its tutorial wrote it: longest side 640 px and the
    /// black-and-white filter, nothing else.
    public static let tutorial = PreprocessingOptions(
        scaling: .maxDimension(640), filter: .blackAndWhite, invertsLightText: false,
        detectsOrientation: false, deskews: false, clearsSurround: false, dewarps: false, correctsKeystone: false)

    /// No preprocessing beyond conversion to grey (and the size limits).
    public static let minimal = PreprocessingOptions(
        scaling: .original, filter: .none, invertsLightText: false, detectsOrientation: false, deskews: false,
        clearsSurround: false, dewarps: false, correctsKeystone: false)
}

extension PreprocessingOptions {
    enum CodingKeys: String, CodingKey {
        case scaling, filter, invertsLightText, detectsOrientation, deskews, clearsSurround, maxOutputPixels, dewarps
        case correctsKeystone
    }

    /// Decodes options; `clearsSurround`, `dewarps` and `correctsKeystone`, added later,
    /// default to on when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scaling = try container.decode(ScalingMode.self, forKey: .scaling)
        filter = try container.decode(ImageFilter.self, forKey: .filter)
        invertsLightText = try container.decode(Bool.self, forKey: .invertsLightText)
        detectsOrientation = try container.decode(Bool.self, forKey: .detectsOrientation)
        deskews = try container.decode(Bool.self, forKey: .deskews)
        clearsSurround = try container.decodeIfPresent(Bool.self, forKey: .clearsSurround) ?? true
        maxOutputPixels = try container.decode(Int.self, forKey: .maxOutputPixels)
        dewarps = try container.decodeIfPresent(Bool.self, forKey: .dewarps) ?? true
        correctsKeystone = try container.decodeIfPresent(Bool.self, forKey: .correctsKeystone) ?? true
    }
}
