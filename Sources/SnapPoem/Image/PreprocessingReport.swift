/// What preprocessing did to one image, step by step: carried in `ScannedPoem` and the JSON
/// export so that a surprising result can be explained.
public struct PreprocessingReport: Sendable, Equatable, Codable {
    /// Size of the decoded (upright) image that went in.
    public var inputWidth: Int
    /// Height of the decoded image that went in.
    public var inputHeight: Int
    /// The measurement of the input, when one was made.
    public var analysis: ImageAnalysis?
    /// Output size ÷ input size (before any rotation); 1 when the size was kept.
    public var scaleFactor: Double
    /// Width of the image after the scaling step, before any quarter turn or deskew: with
    /// `scaledHeight`, what maps the recognised image's pixels back to the input's exactly
    /// (`geometry`), since the two sides are rounded separately.
    public var scaledWidth: Int
    /// Height of the image after the scaling step, before any quarter turn or deskew.
    public var scaledHeight: Int
    /// Whether light text on a dark ground was inverted.
    public var inverted: Bool
    /// Whether uneven light was flattened (`ImageFilter.flatten`, `.adaptive`).
    public var flattened: Bool
    /// The share of the image, 0–1, around a photographed sheet (a dark table) that was
    /// painted white before recognition; 0 when none was (see `ImageAnalysis.surroundShare`).
    public var clearedSurroundShare: Double
    /// Clockwise quarter-turn rotation applied: 0, 90, 180 or 270; from orientation
    /// detection, or 180 for a page that read badly and well upside down
    /// (`orientationConfidence` is then nil).
    public var rotation: Int
    /// Tesseract's orientation confidence, when detection ran and found enough text (nil for
    /// a page turned because it read well upside down, without detection).
    public var orientationConfidence: Double?
    /// The tilt that was measured, in degrees (positive: text rises to the right… see
    /// `SkewMeasurement`); nil when not measured or too uncertain.
    public var skew: SkewMeasurement?
    /// The rotation applied to straighten the text, in degrees; 0 when none.
    public var deskewAngle: Double
    /// The tone filter applied.
    public var filter: ImageFilter
    /// Size of the image Tesseract saw.
    public var outputWidth: Int
    /// Height of the image Tesseract saw.
    public var outputHeight: Int
    /// Things the user should know: a step skipped, a size limit applied.
    public var notes: [String]
    /// How curved the text lines were and whether the page was flattened
    /// (`ImagePreprocessor.dewarped`); nil when dewarping was off or too few lines were found.
    public var curvature: PageCurvature? = nil
    /// The keystone correction of a sheet photographed at an angle: its corners and the
    /// rectangle they were mapped onto (`ImagePreprocessor.keystoneCorrected`); nil when the
    /// page was not corrected.
    public var keystone: KeystoneCorrection? = nil
    /// The grey level raised to white, with every darker one stretched in proportion, because
    /// a global threshold would have cut the page's ground in two there
    /// (`ImagePreprocessor.groundSplit`); nil when the ground was left as it was.
    public var liftedWhitePoint: Int? = nil

    enum CodingKeys: String, CodingKey {
        case inputWidth, inputHeight, analysis, scaleFactor, scaledWidth, scaledHeight, inverted, flattened, clearedSurroundShare, rotation
        case orientationConfidence, skew, deskewAngle, filter, outputWidth, outputHeight, notes, curvature
        case keystone, liftedWhitePoint
    }

    /// Decodes a report. `clearedSurroundShare`, added later, defaults to 0 when absent; the
    /// scaled size, added later too, defaults to the input's size times `scaleFactor`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inputWidth = try container.decode(Int.self, forKey: .inputWidth)
        inputHeight = try container.decode(Int.self, forKey: .inputHeight)
        analysis = try container.decodeIfPresent(ImageAnalysis.self, forKey: .analysis)
        scaleFactor = try container.decode(Double.self, forKey: .scaleFactor)
        scaledWidth =
            try container.decodeIfPresent(Int.self, forKey: .scaledWidth)
            ?? max(1, Int((Double(inputWidth) * scaleFactor).rounded()))
        scaledHeight =
            try container.decodeIfPresent(Int.self, forKey: .scaledHeight)
            ?? max(1, Int((Double(inputHeight) * scaleFactor).rounded()))
        inverted = try container.decode(Bool.self, forKey: .inverted)
        flattened = try container.decode(Bool.self, forKey: .flattened)
        clearedSurroundShare = try container.decodeIfPresent(Double.self, forKey: .clearedSurroundShare) ?? 0
        rotation = try container.decode(Int.self, forKey: .rotation)
        orientationConfidence = try container.decodeIfPresent(Double.self, forKey: .orientationConfidence)
        skew = try container.decodeIfPresent(SkewMeasurement.self, forKey: .skew)
        deskewAngle = try container.decode(Double.self, forKey: .deskewAngle)
        filter = try container.decode(ImageFilter.self, forKey: .filter)
        outputWidth = try container.decode(Int.self, forKey: .outputWidth)
        outputHeight = try container.decode(Int.self, forKey: .outputHeight)
        notes = try container.decode([String].self, forKey: .notes)
        curvature = try container.decodeIfPresent(PageCurvature.self, forKey: .curvature)
        keystone = try container.decodeIfPresent(KeystoneCorrection.self, forKey: .keystone)
        liftedWhitePoint = try container.decodeIfPresent(Int.self, forKey: .liftedWhitePoint)
    }

    /// Creates a report of an image that has not been changed yet.
    public init(inputWidth: Int, inputHeight: Int, filter: ImageFilter = .none) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.analysis = nil
        self.scaleFactor = 1
        self.scaledWidth = inputWidth
        self.scaledHeight = inputHeight
        self.inverted = false
        self.flattened = false
        self.clearedSurroundShare = 0
        self.rotation = 0
        self.orientationConfidence = nil
        self.skew = nil
        self.deskewAngle = 0
        self.filter = filter
        self.outputWidth = inputWidth
        self.outputHeight = inputHeight
        self.notes = []
    }
}

/// The tilt of the text lines, as Leptonica's `pixFindSkew` measures it on the letter-sized
/// shapes of the image (see `ImagePreprocessor.measureSkew`).
public struct SkewMeasurement: Sendable, Equatable, Codable {
    /// The angle, in degrees, by which the image must be rotated (clockwise for a positive
    /// value, as `pixRotate` turns) to make the lines level: text tilted counter-clockwise
    /// measures positive.
    public var angle: Double
    /// Leptonica's confidence: the ratio of the best alignment score to the average one.
    /// Below `ImagePreprocessor.minimumSkewConfidence` the angle is not used.
    public var confidence: Double
    /// How many letter-sized shapes the tilt was measured on (0 when it was measured over
    /// all the ink, as `measureSkew(ofBinary:)` does).
    public var letterCount: Int
    /// How many shapes larger than any letter were left out of the measurement: a sheet's or
    /// a table's straight edges, ruled lines, pictures.
    public var ignoredShapeCount: Int

    /// Creates a measurement.
    public init(angle: Double, confidence: Double, letterCount: Int = 0, ignoredShapeCount: Int = 0) {
        self.angle = angle
        self.confidence = confidence
        self.letterCount = letterCount
        self.ignoredShapeCount = ignoredShapeCount
    }

    enum CodingKeys: String, CodingKey { case angle, confidence, letterCount, ignoredShapeCount }

    /// Decodes a measurement; the shape counts, added later, default to 0 when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        angle = try container.decode(Double.self, forKey: .angle)
        confidence = try container.decode(Double.self, forKey: .confidence)
        letterCount = try container.decodeIfPresent(Int.self, forKey: .letterCount) ?? 0
        ignoredShapeCount = try container.decodeIfPresent(Int.self, forKey: .ignoredShapeCount) ?? 0
    }
}

/// A preprocessed image and the report of how it was made.
public struct PreparedImage: Sendable {
    /// What Tesseract should see.
    public var image: PoemImage
    /// How it was made.
    public var report: PreprocessingReport

    /// Pairs an image with its report.
    public init(image: PoemImage, report: PreprocessingReport) {
        self.image = image
        self.report = report
    }
}

extension PreprocessingReport {
    /// The x-height, in pixels, under which the lines of an enlarged page are never looked for.
    static let leastLineFindingXHeight = 16.0

    /// How many times smaller than the prepared image a copy may be in which its text lines
    /// are found (the curvature measurement, `ImagePreprocessor.dewarped`, and layout
    /// analysis, `PageReading`): 1 unless the page was enlarged; for an enlarged page, the
    /// scale it was photographed at, or an x-height of `leastLineFindingXHeight` where that
    /// is larger. Enlarging small print serves the recognition of each line, not the finding,
    /// and finding costs in proportion to the pixels: on the 300-dpi page
    /// `scan-magazine-veil` (x-height 16.9, ×1.42) layout analysis took 360 ms enlarged and
    /// 200 ms on the copy, with the same text on every held-out image (BENCHMARKS.md). A page
    /// read at its own size or shrunk is analysed as it is: reducing it further saved 10–30
    /// ms a page and changed a line's word spacing on a book photo.
    var lineFindingReduction: Double {
        guard scaleFactor > 1.05, let measured = analysis?.xHeight, measured > 0 else { return 1 }
        return min(scaleFactor, max(1, measured * scaleFactor / Self.leastLineFindingXHeight))
    }
}
