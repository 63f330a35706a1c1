import Foundation

/// snap-poem's own pipeline, built from the public steps in `ImagePreprocessor.swift`.
///
/// Order, and why:
/// 1. grey: every later step works on one channel;
/// 2. measure (one reduced copy): polarity and x-height, used by the next steps;
/// 3. scale: once, to the size asked for (and within the output limits);
/// 4. invert light text: background flattening and Tesseract expect dark marks;
/// 4a. clear the surround: paint the dark table around a photographed sheet in the paper's
///    tone; flattening would turn it into grain and edges that Tesseract reads as text;
/// 4b. keystone: map a sheet photographed at an angle onto a rectangle, from its outline
///    against the table (then the text is measured again for the deskew);
/// 5. flatten (filter `adaptive` always, `flatten` when the lighting is uneven or a surround
///    was cleared): before
///    orientation detection, which thresholds globally and would lose a shadowed half;
/// 5a. lift the white point where a global threshold would cut the ground in two (a screen's
///    pixel grid: `groundSplit`), before anything thresholds the page;
/// 6. orientation (OSD), decided by `PoemScanner` after a doubtful first reading, which then
///    finishes the stage again with the turn;
/// 7. deskew: after the quarter turn, because a sideways page has no level lines to measure;
/// 8. last tone step: `adaptive` thresholds, `black-and-white` applies its table; after the
///    deskew so that the rotation resamples grey rather than hard black-and-white edges.
extension ImagePreprocessor {
    /// Runs every step `options` asks for except orientation detection, which needs an
    /// engine and is the pipeline's to decide (`PoemScanner` asks Tesseract's OSD only when a
    /// first reading is doubtful), and reports what it did.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate an image.
    public static func process(_ image: PoemImage, options: PreprocessingOptions) throws(SnapPoemError) -> PreparedImage {
        try finish(start(image, options: options), turn: nil, applying: false)
    }

    /// Runs `process(_:options:)` and returns only the image: what Tesseract should see.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate an image.
    public static func prepare(_ image: PoemImage, options: PreprocessingOptions) throws(SnapPoemError) -> PoemImage {
        try process(image, options: options).image
    }

    /// The work before orientation detection: grey, measure, scale, invert, clear the
    /// surround, correct the keystone, flatten, lift the white point of a ground cut in two.
    static func start(_ image: PoemImage, options: PreprocessingOptions) throws(SnapPoemError) -> Stage {
        var report = PreprocessingReport(inputWidth: image.width, inputHeight: image.height, filter: options.filter)
        let gray = try grayscale(image)
        let (analysis, measured) = ImageAnalysis.measure(gray.pix)
        report.analysis = analysis

        let (width, height) = targetSize(of: gray, options: options, xHeight: analysis.xHeight, notes: &report.notes)
        var current = try resized(gray, width: width, height: height)
        report.scaleFactor = Double(current.width) / Double(max(1, gray.width))
        report.scaledWidth = current.width
        report.scaledHeight = current.height
        let xHeight = analysis.xHeight.map { $0 * report.scaleFactor }

        if options.invertsLightText && analysis.isLightOnDark {
            current = try inverted(current)
            report.inverted = true
        }
        if options.clearsSurround, let measured, let surround = measured.surround {
            let paper = measured.paperTone
            current = try clearing(surround, from: current, tone: analysis.isLightOnDark && !report.inverted ? 255 - paper : paper)
            report.clearedSurroundShare = analysis.surroundShare
        }
        var measuredForSkew = measured
        if options.correctsKeystone, let measured, let surround = measured.surround {
            let paper = measured.paperTone
            let tone = analysis.isLightOnDark && !report.inverted ? 255 - paper : paper
            if let (corrected, correction) = try keystoneCorrected(current, surround: surround, tone: tone) {
                current = corrected
                report.keystone = correction
                // The measured copy no longer matches the image: the deskew measures the
                // corrected one, for print that is askew on the sheet itself.
                measuredForSkew = ImageAnalysis.measure(try grayscale(corrected).pix).measured
            }
        }
        // A cleared surround leaves the sheet's own shading at its edges: flattening evens it.
        let uneven = analysis.unevenness >= ImageAnalysis.unevenLighting || report.clearedSurroundShare > 0
        if options.filter == .adaptive || (options.filter == .flatten && uneven) {
            current = try flattenedBackground(current, xHeight: xHeight)
            report.flattened = true
        }
        // A ground the global threshold would cut in two (a screen's pixel grid, a dim photo's
        // grain) is made paper again before anything thresholds it.
        if options.filter == .flatten || options.filter == .adaptive, current.bitsPerPixel == 8,
            let histogram = current.pix.grayHistogram(sampling: 2), let level = groundSplit(histogram),
            liftSettlesSplit(histogram, at: level)
        {
            current = try liftingWhitePoint(current, to: level)
            report.liftedWhitePoint = level
        }
        return Stage(options: options, prepared: PreparedImage(image: current, report: report), measured: measuredForSkew)
    }

    /// The work after orientation detection: quarter turn (when `applying` says the detector
    /// found `turn` confident enough), deskew, curvature, last tone step.
    static func finish(_ stage: Stage, turn: PageOrientation?, applying: Bool) throws(SnapPoemError) -> PreparedImage {
        try shaped(levelled(stage, turn: turn, applying: applying))
    }

    /// The first half of `finish`: quarter turn and deskew. What the curvature step measures.
    static func levelled(_ stage: Stage, turn: PageOrientation?, applying: Bool) throws(SnapPoemError) -> Levelled {
        let options = stage.options
        var current = stage.prepared.image
        var report = stage.prepared.report
        var measured = stage.measured
        if let turn {
            report.orientationConfidence = turn.confidence
            if applying && turn.rotation != 0 {
                current = try rotated(current, clockwiseDegrees: turn.rotation)
                measured = try measured.map { m throws(SnapPoemError) in try m.rotated(clockwiseDegrees: turn.rotation) }
                report.rotation = turn.rotation
            }
        }
        if options.deskews, let measured, let skew = measureSkew(of: measured) {
            report.skew = skew
            if shouldDeskew(skew) {
                // Recorded only when the rotation happened (Leptonica may refuse it), so that
                // `report.geometry` maps boxes back through what was really done.
                if let straightened = try rotatedForDeskew(current, angle: skew.angle) {
                    current = straightened
                    report.deskewAngle = skew.angle
                } else {
                    current = try grayscale(current)
                }
            }
        }
        return Levelled(options: options, prepared: PreparedImage(image: current, report: report))
    }

    /// The second half of `finish`: curvature (`curved`), last tone step.
    static func shaped(_ levelled: Levelled) throws(SnapPoemError) -> PreparedImage {
        try toned(curved(levelled))
    }

    /// The curvature step: the page measured, and flattened when curved (the report's
    /// `curvature` says which); `glancing` as in `dewarped(_:measuringOnCopyReducedBy:…)`.
    static func curved(_ levelled: Levelled, glancing: Bool = true) throws(SnapPoemError) -> Levelled {
        guard levelled.options.dewarps else { return levelled }
        var result = levelled
        let report = levelled.prepared.report
        let xHeight = report.analysis?.xHeight.map { $0 * report.scaleFactor }
        let (flattened, curvature) = try dewarped(
            levelled.prepared.image, measuringOnCopyReducedBy: report.lineFindingReduction, xHeight: xHeight, glancing: glancing)
        result.prepared.report.curvature = curvature
        if curvature?.applied == true { result.prepared.image = flattened }
        return result
    }

    /// `shaped(levelled)` as it comes out when the page is not curved, without measuring
    /// (the report has no curvature): the last tone step alone. `PoemScanner` analyses its
    /// layout while `curved` measures the curvature on another core; a page found flat (most
    /// pages) is then this very image, with the curvature measured.
    static func assumedFlat(_ levelled: Levelled) throws(SnapPoemError) -> PreparedImage {
        try toned(levelled)
    }

    /// The last tone step: `adaptive` thresholds, `black-and-white` applies its table; after
    /// the deskew so that the rotation resamples grey rather than hard black-and-white edges.
    static func toned(_ levelled: Levelled) throws(SnapPoemError) -> PreparedImage {
        var current = levelled.prepared.image
        var report = levelled.prepared.report
        switch levelled.options.filter {
        case .none, .flatten: break
        case .blackAndWhite: current = try filtered(current, with: .blackAndWhite)
        case .adaptive: current = try binarized(current)
        }
        report.outputWidth = current.width
        report.outputHeight = current.height
        return PreparedImage(image: current, report: report)
    }

    /// The size `options.scaling` asks for, brought within Tesseract's 32767 px a side and
    /// `options.maxOutputPixels` (with a note when those limits bite).
    static func targetSize(
        of image: PoemImage, options: PreprocessingOptions, xHeight: Double?, notes: inout [String]
    ) -> (width: Int, height: Int) {
        var (width, height) = targetSize(of: image, mode: options.scaling, xHeight: xHeight)
        let sideLimit = PreprocessingOptions.tesseractMaxSide
        let shrink = min(
            1, Double(sideLimit) / Double(max(width, height)),
            (Double(options.maxOutputPixels) / (Double(width) * Double(height))).squareRoot())
        if shrink < 1 {
            let newWidth = max(1, Int((Double(width) * shrink).rounded(.down)))
            let newHeight = max(1, Int((Double(height) * shrink).rounded(.down)))
            notes.append(
                "scaled down to \(newWidth)×\(newHeight) instead of \(width)×\(height) to stay within \(ImageLimits.describe(pixels: options.maxOutputPixels)) and \(sideLimit) pixels a side"
            )
            (width, height) = (newWidth, newHeight)
        }
        return (width, height)
    }

    /// The page turned and deskewed (`levelled`), before the curvature step and the last
    /// tone step (`shaped`).
    struct Levelled: Sendable {
        /// The options being carried out.
        var options: PreprocessingOptions
        /// The image so far, and the report so far.
        var prepared: PreparedImage
    }

    /// The pipeline's state between the two halves, while orientation detection runs.
    struct Stage: Sendable {
        /// The options being carried out.
        var options: PreprocessingOptions
        /// The image so far, and the report so far.
        var prepared: PreparedImage
        /// The reduced, thresholded copy measured in step 2, for the skew measurement.
        var measured: MeasuredCopy?
    }
}
