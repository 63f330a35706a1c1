import CTesseract

/// How curved the text lines of a page are, as Leptonica's page dewarper measured them, and
/// whether the page was flattened (`ImagePreprocessor.dewarped`).
public struct PageCurvature: Sendable, Equatable, Codable {
    /// The text lines the model was built on (long lines only; 0 when none was built).
    public var lineCount: Int
    /// The least and the greatest curvature of those lines, in Leptonica's units (the
    /// quadratic coefficient of a line fitted as y = a·x² + b·x + c, times 10⁶).
    public var minimumCurvature: Int
    /// See `minimumCurvature`.
    public var maximumCurvature: Int
    /// Whether the page was flattened.
    public var applied: Bool

    /// Creates a curvature record.
    public init(lineCount: Int, minimumCurvature: Int, maximumCurvature: Int, applied: Bool) {
        self.lineCount = lineCount
        self.minimumCurvature = minimumCurvature
        self.maximumCurvature = maximumCurvature
        self.applied = applied
    }

    /// The larger magnitude of the two curvatures.
    public var strongest: Int { max(abs(minimumCurvature), abs(maximumCurvature)) }
}

/// Flattening a page photographed in an open book: its lines rise (or sink) toward the
/// spine, and Tesseract splits such a page at the bend into two columns whose half lines
/// come out in the wrong order, or reads the bent ends badly.
///
/// Leptonica 1.82's dewarper (`dewarpaCreate`, `dewarpCreate`, `dewarpBuildPageModel`,
/// `dewarpaApplyDisparity`) finds the text lines of a binarised copy, fits each with a
/// quadratic, builds a vertical (and where it can, a horizontal) disparity field and
/// resamples the grey page through it. Measured on the held-out book photos and the curl
/// sweep (BENCHMARKS.md): lines that rise 40–100 px toward the spine give curvatures of
/// 56–381; flat pages, tilted ones after deskewing and scans give 6–37. Below
/// `leastCurvature` the page is left alone: resampling a flat page gains nothing and risks
/// bending straight lines. No model is built, and the page stays as it is, when Leptonica
/// finds fewer than `leastLines` long text lines (at least 0.8 of the longest), or fewer
/// than three of them in each half of the page (its own rule, which a poem of short,
/// uneven lines can fail), or on a page in several columns.
extension ImagePreprocessor {
    /// The smallest curvature (`PageCurvature.strongest`) for which a page is flattened.
    public static let leastCurvature = 45
    /// The fewest long text lines Leptonica must find to build a model (its own default,
    /// 15, is more than many poems have).
    public static let leastLines: Int32 = 6
    /// The curvature Leptonica accepts at most in a model (its default, 150, refuses the
    /// pages that need flattening most; a 100 px lift over half of a narrow page reaches
    /// about 800).
    static let largestCurvature: Int32 = 1000

    /// `image` flattened when its text lines are curved, and what was measured; the image
    /// itself and nil when no model could be built (too few lines, no text).
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate.
    public static func dewarped(_ image: PoemImage) throws(SnapPoemError) -> (image: PoemImage, curvature: PageCurvature?) {
        let gray = try grayscale(image)
        guard gray.width >= 100, gray.height >= 100 else { return (gray, nil) }
        try gray.pix.ensureRoomForOperation("dewarpBuildPageModel")
        var binaryOwner = pixThresholdToBinary(gray.pix.pointer, 130)
        defer { pixDestroy(&binaryOwner) }
        guard let binary = binaryOwner else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "thresholding the page to measure its curvature")
        }
        var dewarpaOwner = dewarpaCreate(1, 30, 1, leastLines, -1)
        defer { dewarpaDestroy(&dewarpaOwner) }
        guard let dewarpa = dewarpaOwner else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "starting Leptonica's dewarper")
        }
        dewarpaUseBothArrays(dewarpa, 1)
        dewarpaSetCurvatures(dewarpa, largestCurvature, 0, largestCurvature + 100, -1, -1, -1)
        // The dewarp is owned by the dewarpa once inserted.
        guard let dewarp = dewarpCreate(binary, 0) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "starting Leptonica's dewarper")
        }
        dewarpaInsertDewarp(dewarpa, dewarp)
        guard dewarpBuildPageModel(dewarp, nil) == 0 else { return (gray, nil) }
        var curvature = PageCurvature(
            lineCount: Int(dewarp.pointee.nlines), minimumCurvature: Int(dewarp.pointee.mincurv),
            maximumCurvature: Int(dewarp.pointee.maxcurv), applied: false)
        guard curvature.strongest >= leastCurvature else { return (gray, curvature) }
        var flattened: UnsafeMutablePointer<PIX>?
        guard dewarpaApplyDisparity(dewarpa, 0, gray.pix.pointer, 255, 0, 0, &flattened, nil) == 0, let result = flattened else {
            return (gray, curvature)
        }
        curvature.applied = true
        return (PoemImage(pix: PixImage(taking: result)), curvature)
    }
}
