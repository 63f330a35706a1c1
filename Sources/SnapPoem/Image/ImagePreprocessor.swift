import CTesseract
import Foundation

/// The image stage of the pipeline. Every step is a pure function from image to image, public
/// so that callers can build their own pipeline; `process(_:options:)` (and its asynchronous
/// form with orientation detection, in `ImagePreprocessor+Pipeline.swift`) runs them in the
/// order snap-poem uses:
///
/// grey → measure → scale → invert light text → clear the surround → keystone → flatten →
/// [orientation] → deskew → dewarp → filter.
///
/// Steps that make a new image throw `SnapPoemError.outOfMemory` when Leptonica cannot
/// allocate it (named `SnapPoemError.unnamedImage`; `naming(_:)` puts the file's name in).
public enum ImagePreprocessor {
    /// Converts to 8-bit grey (colour by luminance, palettes resolved, 1-bit expanded).
    public static func grayscale(_ image: PoemImage) throws(SnapPoemError) -> PoemImage {
        let pix = image.pix
        if pix.depth == 8 && !pix.hasColormap { return image }
        return PoemImage(pix: try pix.transformed("pixConvertTo8") { pixConvertTo8($0, 0) })
    }

    // MARK: - Size

    /// The factor that `mode` asks for, given the image's measured x-height (only
    /// `.automatic` uses it; pass nil when nothing was measured). 1 means "keep the size".
    public static func scaleFactor(for image: PoemImage, mode: ScalingMode, xHeight: Double?) -> Double {
        switch mode {
        case .original:
            return 1
        case .maxDimension(let limit):
            let longest = max(image.width, image.height)
            return longest > limit ? Double(limit) / Double(longest) : 1
        case .automatic:
            guard let xHeight, xHeight > 0 else { return 1 }
            if ScalingMode.comfortableXHeights.contains(xHeight) { return 1 }
            let factor = ScalingMode.targetXHeight / xHeight
            return min(max(factor, ScalingMode.automaticFactors.lowerBound), ScalingMode.automaticFactors.upperBound)
        }
    }

    /// The size `mode` asks for. `.maxDimension(N)` makes the longer side exactly N (when it
    /// is longer) and the shorter `round(shorter × N ÷ longer)`, halves up, at least 1, in
    /// integer arithmetic; the other modes multiply both sides by `scaleFactor` and round.
    public static func targetSize(of image: PoemImage, mode: ScalingMode, xHeight: Double?) -> (width: Int, height: Int) {
        let width = image.width, height = image.height
        if case .maxDimension(let limit) = mode {
            let longest = max(width, height)
            guard longest > limit else { return (width, height) }
            let shorter = { (length: Int) in max(1, (2 * length * limit + longest) / (2 * longest)) }
            return width >= height ? (limit, shorter(height)) : (shorter(width), limit)
        }
        let factor = scaleFactor(for: image, mode: mode, xHeight: xHeight)
        guard factor != 1 else { return (width, height) }
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// Scales according to `mode`, measuring the text first for `.automatic`; returns the same
    /// image when no change is needed.
    public static func scaled(_ image: PoemImage, mode: ScalingMode) throws(SnapPoemError) -> PoemImage {
        let xHeight = mode == .automatic ? ImageAnalysis(measuring: image).xHeight : nil
        let size = targetSize(of: image, mode: mode, xHeight: xHeight)
        return try resized(image, width: size.width, height: size.height)
    }

    /// Scales both sides by `factor`; new sides are `round(side × factor)`, at least 1.
    /// Returns the same image for a factor of 1.
    ///
    /// - Throws: `SnapPoemError.invalidOption` when a side would exceed
    ///   `PreprocessingOptions.tesseractMaxSide`, `.outOfMemory` when Leptonica cannot
    ///   allocate the result.
    public static func scaled(_ image: PoemImage, by factor: Double) throws(SnapPoemError) -> PoemImage {
        guard factor.isFinite, factor > 0, abs(factor - 1) > 1e-6 else { return image }
        let limit = Double(PreprocessingOptions.tesseractMaxSide)
        guard Double(image.width) * factor <= limit, Double(image.height) * factor <= limit else {
            throw .invalidOption(
                option: "scale factor",
                reason: "\(factor) would make the \(image.width)×\(image.height) image larger than \(Int(limit)) pixels a side")
        }
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        return try resized(image, width: width, height: height)
    }

    /// Resamples to exactly `width` × `height` (`pixScaleToSize`: area averaging when
    /// shrinking, linear interpolation when enlarging).
    /// A copy of `image` sampled `reduction` times smaller (`pixScaleBySampling`: a pixel of
    /// every `reduction`, no smoothing), on which the text lines of an enlarged page are found
    /// (`PreprocessingReport.lineFindingReduction`); nil when `reduction` is not above 1.05 or
    /// a side would be under `minimumSide`.
    ///
    /// - Throws: `SnapPoemError.outOfMemory`.
    static func sampledDown(_ image: PoemImage, by reduction: Double, minimumSide: Int) throws(SnapPoemError) -> PoemImage? {
        let width = Int((Double(image.width) / reduction).rounded()), height = Int((Double(image.height) / reduction).rounded())
        guard reduction > 1.05, width >= minimumSide, height >= minimumSide else { return nil }
        return PoemImage(
            pix: try image.pix.transformed("pixScaleBySampling") {
                pixScaleBySampling($0, Float(width) / Float(image.width), Float(height) / Float(image.height))
            })
    }

    static func resized(_ image: PoemImage, width: Int, height: Int) throws(SnapPoemError) -> PoemImage {
        guard width != image.width || height != image.height else { return image }
        return PoemImage(pix: try image.pix.transformed("pixScaleToSize") { pixScaleToSize($0, Int32(width), Int32(height)) })
    }

    // MARK: - Tones

    /// Turns light text on a dark ground into dark text on a light one (`pixInvert`).
    public static func inverted(_ image: PoemImage) throws(SnapPoemError) -> PoemImage {
        PoemImage(pix: try image.pix.transformed("pixInvert") { pixInvert(nil, $0) })
    }

    /// Divides an 8-bit grey image by an estimate of its background, so that paper reads 200
    /// everywhere: under a shadow, in a vignette's corners, on coloured paper alike.
    ///
    /// The background is a grey closing (`pixBackgroundNormMorph`) on a copy reduced by 4
    /// (by 2 for small images), with a square whose side at full size is about twice the
    /// x-height, when known, or 60 px otherwise: wide enough to wipe out every stroke, narrow
    /// enough to follow a shadow's edge. Returns the image unchanged where Leptonica cannot
    /// (images under about 64 px a side).
    public static func flattenedBackground(_ image: PoemImage, xHeight: Double?) throws(SnapPoemError) -> PoemImage {
        let gray = try grayscale(image)
        let reduction = min(gray.width, gray.height) >= 400 ? 4 : 2
        let reach = max(16.0, min(200.0, 2 * (xHeight ?? 30)))
        var size = Int((reach / Double(reduction)).rounded())
        if size % 2 == 0 { size += 1 }
        guard min(gray.width, gray.height) >= reduction * size * 2 else { return gray }
        try gray.pix.ensureRoomForOperation("pixBackgroundNormMorph")
        guard let flat = gray.pix.attempt({ pixBackgroundNormMorph($0, nil, Int32(reduction), Int32(size), 200) }) else {
            return gray
        }
        return PoemImage(pix: flat)
    }

    /// The grey level at which Tesseract's global threshold (Otsu's split of the grey levels,
    /// which Tesseract makes before finding the lines) would cut through the page's ground
    /// rather than between the ink and the ground; nil when the split falls where it should.
    ///
    /// A split between ink and ground lies in a valley of the histogram and blackens little of
    /// the page. A split that blackens `groundSplitInkShare` of it, or more, with
    /// `groundSplitCrowding` of the page or more in the `groundSplitBand` levels just under it,
    /// has cut a textured ground in two: a screen's pixel grid (moiré) or a dim photo's grain
    /// that flattening left darker than the cleared surround. Tesseract then sees the darker
    /// half of the ground as one black blob full of holes, reads garbage and takes up to
    /// 30 s over its layout (a screen photo of the corpus's second draw: 32 s where the CLI
    /// takes 1.6 s on the photo as it is). `histogram` is the page's 256 level counts
    /// (`PixImage.grayHistogram`).
    static func groundSplit(_ histogram: [Double]) -> Int? {
        let total = histogram.reduce(0, +)
        guard histogram.count == 256, total > 0 else { return nil }
        let split = otsuSplit(histogram)
        let dark = histogram[0...split].reduce(0, +)
        let crowded = histogram[max(0, split - groundSplitBand + 1)...split].reduce(0, +)
        guard dark >= groundSplitInkShare * total, crowded >= groundSplitCrowding * total else { return nil }
        return split
    }

    /// Whether lifting the white point of an image with `histogram` to `level`
    /// (`liftingWhitePoint`) puts the global threshold between ink and ground: the lifted
    /// page's split blackens less than `groundSplitInkShare` of it. Where it does not (a dim
    /// page whose grain the lift brings up to the split: a low-light photo with a fold and a
    /// shadow of the tune part went from CER 19 to 42 %), the page is left as it was.
    static func liftSettlesSplit(_ histogram: [Double], at level: Int) -> Bool {
        var lifted = [Double](repeating: 0, count: 256)
        for (value, count) in histogram.enumerated() { lifted[Int(liftedLevel(value, whitePoint: level))] += count }
        let total = lifted.reduce(0, +)
        let split = otsuSplit(lifted)
        return total > 0 && lifted[0...split].reduce(0, +) < groundSplitInkShare * total
    }

    /// The share of the page, darker than the split, from which the split is suspected to cut
    /// the ground: more than the ink of any page of verse covers (3–14 % on the corpus's tune
    /// part, the heavier figures on pages enlarged from low resolution or degraded).
    static let groundSplitInkShare = 0.15
    /// The share of the page within `groundSplitBand` levels under the split from which the
    /// split lies on a slope of the ground's peak, not in the valley after the ink (under 4 %
    /// on every page of the tune part whose split was right, 5–28 % on the screen photos).
    static let groundSplitCrowding = 0.04
    /// The width, in grey levels, of the band under the split that `groundSplitCrowding` counts.
    static let groundSplitBand = 16

    /// The level that splits `histogram` (256 counts) by Otsu's method: the darker class is
    /// the levels up to and including it.
    static func otsuSplit(_ histogram: [Double]) -> Int {
        let total = histogram.reduce(0, +)
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        var weight = 0.0, weightedSum = 0.0, best = 0.0, split = 0
        for level in 0..<255 {
            weight += histogram[level]
            weightedSum += Double(level) * histogram[level]
            let rest = total - weight
            guard weight > 0, rest > 0 else { continue }
            let difference = weightedSum / weight - (sum - weightedSum) / rest
            let between = weight * rest * difference * difference
            if between > best { (best, split) = (between, level) }
        }
        return split
    }

    /// Maps `level` and every lighter grey to white and stretches the darker ones in
    /// proportion: the ground that `groundSplit` found cut in two becomes paper again, while
    /// the ink keeps its shades for Tesseract's LSTM.
    static func liftingWhitePoint(_ image: PoemImage, to level: Int) throws(SnapPoemError) -> PoemImage {
        let table = (0..<256).map { liftedLevel($0, whitePoint: level) }
        return PoemImage(pix: try grayscale(image).pix.mapped(through: table))
    }

    /// Where `liftingWhitePoint` takes grey `value` for a white point at `whitePoint`.
    static func liftedLevel(_ value: Int, whitePoint: Int) -> UInt8 {
        UInt8(min(255, (value * 255 + whitePoint / 2) / max(whitePoint, 1)))
    }

    /// Thresholds an image to 1-bit black and white at the Otsu split of its grey levels
    /// (`pixSplitDistributionFgBg`, `pixThresholdToBinary`). Returns the grey image unchanged
    /// if Leptonica cannot split it (a uniform image).
    public static func binarized(_ image: PoemImage) throws(SnapPoemError) -> PoemImage {
        if image.pix.depth == 1 { return image }
        let gray = try grayscale(image)
        guard let binary = gray.pix.otsuBinarized() else { return gray }
        return PoemImage(pix: binary)
    }

    /// Applies a tone filter to an image (converted to 8-bit grey first).
    ///
    /// - Parameters:
    ///   - image: the image to filter.
    ///   - filter: the tone filter to apply.
    ///   - xHeight: the text's x-height in this image's pixels, if known; sizes the
    ///     background estimate of `.flatten` and `.adaptive`.
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate an image.
    public static func filtered(_ image: PoemImage, with filter: ImageFilter, xHeight: Double? = nil) throws(SnapPoemError) -> PoemImage {
        switch filter {
        case .none:
            return try grayscale(image)
        case .blackAndWhite:
            return PoemImage(pix: try grayscale(image).pix.mapped(through: blackAndWhiteTable))
        case .flatten:
            return try flattenedBackground(image, xHeight: xHeight)
        case .adaptive:
            return try binarized(flattenedBackground(image, xHeight: xHeight))
        }
    }

    /// The lookup table of `.blackAndWhite`: contrast 1.1 around 0.5, then exposure +0.7 EV.
    static let blackAndWhiteTable: [UInt8] = (0..<256).map { level in
        let value = Double(level) / 255
        let contrasted = (value - 0.5) * 1.1 + 0.5
        let exposed = contrasted * pow(2, 0.7)
        return UInt8((min(max(exposed, 0), 1) * 255).rounded())
    }

    // MARK: - Geometry

    /// Turns the image clockwise by a multiple of 90° (`pixRotateOrth`); other angles are
    /// rounded to the nearest quarter turn.
    public static func rotated(_ image: PoemImage, clockwiseDegrees degrees: Int) throws(SnapPoemError) -> PoemImage {
        let quarters = ((Int((Double(degrees) / 90).rounded()) % 4) + 4) % 4
        guard quarters != 0 else { return image }
        return PoemImage(pix: try image.pix.transformed("pixRotateOrth") { pixRotateOrth($0, Int32(quarters)) })
    }

    /// The largest tilt, in degrees either way, that `measureSkew` looks for.
    public static let maximumSkew = 7.0
    /// Below this confidence a measured tilt is ignored (Leptonica's own `pixDeskew` rule).
    public static let minimumSkewConfidence = 3.0
    /// Tilts smaller than this, in degrees, are left alone: Tesseract copes with them, and
    /// resampling would only soften the letters.
    public static let minimumDeskewAngle = 0.3

    /// Measures the tilt of the text lines (`pixFindSkewSweepAndSearch` over ±`maximumSkew`° on
    /// a reduced, thresholded copy, keeping only its letter-sized shapes). Nil when there is
    /// too little text to say.
    public static func measureSkew(_ image: PoemImage) -> SkewMeasurement? {
        guard let gray = try? grayscale(image), let measured = ImageAnalysis.measure(gray.pix).measured else { return nil }
        return measureSkew(of: measured)
    }

    /// Measures the tilt of the text lines in a measured copy, on its letter-sized shapes only
    /// (see `LetterShapes`): a sheet's straight edge, a table's edge, a ruled line or a
    /// picture is left out, so that it cannot outvote the text. Nil when Leptonica finds no
    /// angle.
    static func measureSkew(of measured: MeasuredCopy) -> SkewMeasurement? {
        let shapes = LetterShapes(of: measured.binary, xHeight: measured.xHeight)
        let letters = shapes.letterCount
        let oversized = shapes.oversizedCount
        let bounds = shapes.bounds
        let text = letters == shapes.boxes.count ? measured.binary : measured.binary.keepingShapes(where: bounds.admits)
        guard let text, var skew = measureSkew(ofBinary: text) else { return nil }
        skew.letterCount = letters
        skew.ignoredShapeCount = oversized
        return skew
    }

    /// Measures the tilt of a 1-bit image's text lines, over all of its ink.
    static func measureSkew(ofBinary binary: PixImage) -> SkewMeasurement? {
        var angle: Float = 0, confidence: Float = 0
        let status = pixFindSkewSweepAndSearch(
            binary.pointer, &angle, &confidence, 2, 1, Float(maximumSkew), 1, 0.01)
        guard status == 0, angle.isFinite, confidence.isFinite else { return nil }
        return SkewMeasurement(angle: Double(angle), confidence: Double(confidence))
    }

    /// Whether `skew` is worth straightening: confident enough and large enough.
    public static func shouldDeskew(_ skew: SkewMeasurement) -> Bool {
        skew.confidence >= minimumSkewConfidence && abs(skew.angle) >= minimumDeskewAngle
            && abs(skew.angle) <= maximumSkew
    }

    /// Rotates by `angle` degrees (`SkewMeasurement`'s sense) about the centre, by area
    /// mapping, on a canvas enlarged so that no corner is cut off; new pixels are white.
    public static func deskewed(_ image: PoemImage, angle: Double) throws(SnapPoemError) -> PoemImage {
        guard abs(angle) >= 0.05 else { return image }  // below 0.0573° pixRotate returns a clone, which `attempt` resolves
        if let rotated = try rotatedForDeskew(image, angle: angle) { return rotated }
        return try grayscale(image)
    }

    /// The rotation of `deskewed`, or nil when the angle is too small to rotate by or
    /// Leptonica refuses it. `PreprocessingGeometry` undoes exactly this rotation.
    static func rotatedForDeskew(_ image: PoemImage, angle: Double) throws(SnapPoemError) -> PoemImage? {
        guard PreprocessingGeometry.rotatesForDeskew(angle) else { return nil }
        let gray = try grayscale(image)
        let radians = PreprocessingGeometry.deskewRadians(angle)
        try gray.pix.ensureRoomForOperation("pixRotate")
        let rotated = gray.pix.attempt {
            pixRotate($0, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), Int32(gray.width), Int32(gray.height))
        }
        return rotated.map(PoemImage.init(pix:))
    }
}

extension PixImage {
    /// Returns a copy of an 8-bit grey image with every value mapped through `table`.
    func mapped(through table: [UInt8]) throws(SnapPoemError) -> PixImage {
        precondition(depth == 8 && table.count == 256, "lookup tables apply to 8-bit grey images")
        let copy = try transformed("pixCopy") { pixCopy(nil, $0) }
        guard let numbers = numaCreate(256) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "Leptonica's numaCreate for a lookup table")
        }
        defer {
            var owned: NumaPointer? = numbers
            numaDestroy(&owned)
        }
        for value in table { numaAddNumber(numbers, Float(value)) }
        pixTRCMap(copy.pointer, nil, numbers)
        return copy
    }
}
