import CTesseract

/// What measuring an image found out about its text, before anything is changed: whether
/// the text is light on a dark ground, and how tall its lower-case letters are.
///
/// The measurement runs on a copy reduced to at most `ImageAnalysis.workingSide` pixels a
/// side (`pixScaleAreaMap`), with its background flattened and thresholded (see
/// `ImagePreprocessor.flattenedBackground`), so it costs a few tens of milliseconds even on
/// a 12-megapixel photo. Sizes are reported in the pixels of the image that was measured.
public struct ImageAnalysis: Sendable, Equatable, Codable {
    /// Whether the text is lighter than its background (cream letters on a slate card).
    public var isLightOnDark: Bool
    /// The evidence for light text, from −1 (every textured tile has dark marks on a light
    /// ground) to 1 (every one has light marks on a dark ground). `isLightOnDark` is
    /// `polarity > ImageAnalysis.lightOnDarkThreshold`.
    public var polarity: Double
    /// The typical height of a lower-case letter without ascender (a, e, n, o…), in pixels;
    /// nil when too few letter-like shapes were found to say (a blank page, a photo of a
    /// wall).
    public var xHeight: Double?
    /// How many letter-like shapes `xHeight` was measured on.
    public var letterCount: Int
    /// How unevenly the page is lit: 1 − (dark end ÷ bright end) of its background, taking
    /// the 5th and 95th percentiles of a background map (a grey closing that wipes out the
    /// text; for light text, an opening). 0 for a flatbed scan; 0.5 when the shadowed part
    /// gets half the light. Above `unevenLighting` the `flatten` filter acts. The dark
    /// surround of a photographed sheet (`surroundShare`) is left out: a table says nothing
    /// about the light on the page.
    public var unevenness: Double
    /// The share of the image, 0–1, taken by a dark surround around a photographed sheet (the
    /// table it lies on), which the pipeline paints white; 0 when there is none. See
    /// `ImageAnalysis+Surround.swift`.
    public var surroundShare: Double

    /// Creates a record of a measurement.
    public init(
        isLightOnDark: Bool, polarity: Double, xHeight: Double?, letterCount: Int, unevenness: Double = 0,
        surroundShare: Double = 0
    ) {
        self.isLightOnDark = isLightOnDark
        self.polarity = polarity
        self.xHeight = xHeight
        self.letterCount = letterCount
        self.unevenness = unevenness
        self.surroundShare = surroundShare
    }

    enum CodingKeys: String, CodingKey { case isLightOnDark, polarity, xHeight, letterCount, unevenness, surroundShare }

    /// Decodes a measurement; `surroundShare`, added later, defaults to 0 when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isLightOnDark = try container.decode(Bool.self, forKey: .isLightOnDark)
        polarity = try container.decode(Double.self, forKey: .polarity)
        xHeight = try container.decodeIfPresent(Double.self, forKey: .xHeight)
        letterCount = try container.decode(Int.self, forKey: .letterCount)
        unevenness = try container.decode(Double.self, forKey: .unevenness)
        surroundShare = try container.decodeIfPresent(Double.self, forKey: .surroundShare) ?? 0
    }

    /// The longer side, in pixels, of the reduced copy that is measured.
    public static let workingSide = 1600
    /// `polarity` above which the text is taken to be light on dark.
    public static let lightOnDarkThreshold = 0.25
    /// Fewer letter-like shapes than this and no x-height is reported.
    public static let minimumLetterCount = 12
    /// The least difference, in grey levels of the flattened copy (paper at 200), between the
    /// typical mark and the typical paper for the image to count as holding text. Measured:
    /// 3 on the blank parchment sample, 44 on the low-contrast one, 130–150 on the others.
    public static let minimumContrast = 20
    /// The least share of letter-like shapes within 15 % of the x-height peak. Measured:
    /// 0.11 for paper texture, 0.48–0.72 for text.
    public static let minimumPeakShare = 0.25
    /// The shortest shape counted as a possible letter, in pixels of the measuring copy.
    static let shortestLetter = 4
    /// `unevenness` from which lighting counts as uneven. Measured: 0.00–0.10 on the evenly
    /// lit samples (scans, blur, JPEG artefacts, coloured paper), 0.19 on the page of the phone
    /// photo (lit from one corner; its table left out), 0.54–0.88 on those with a shadow, a
    /// vignette or a lamp's fall-off.
    public static let unevenLighting = 0.2

    /// Measures `image` (any depth; converted to grey first). An image that cannot even be
    /// converted (Leptonica out of memory) measures as one without text.
    public init(measuring image: PoemImage) {
        guard let gray = try? ImagePreprocessor.grayscale(image) else {
            self.init(isLightOnDark: false, polarity: 0, xHeight: nil, letterCount: 0)
            return
        }
        self = Self.measure(gray.pix).analysis
    }

    /// Measures an 8-bit grey image and also returns the reduced, thresholded copy it
    /// measured (dark marks black), for the skew measurement that follows, with the dark
    /// surround of a photographed sheet, if any, left out of it.
    static func measure(_ gray: PixImage) -> (analysis: ImageAnalysis, measured: MeasuredCopy?) {
        guard let working = WorkingCopy(gray) else {
            return (ImageAnalysis(isLightOnDark: false, polarity: 0, xHeight: nil, letterCount: 0), nil)
        }
        let polarity = Self.polarity(of: working.gray)
        let isLightOnDark = polarity > Self.lightOnDarkThreshold
        guard let source = working.oriented(invert: isLightOnDark) else {
            return (ImageAnalysis(isLightOnDark: isLightOnDark, polarity: polarity, xHeight: nil, letterCount: 0), nil)
        }
        let map = Self.backgroundMap(of: source)
        // The text is measured without the table around a photographed sheet (its grain once
        // halved the x-height, and the page was enlarged four times over).
        let sheet = WorkingCopy.binarized(source).map { Self.sheetMarks(of: $0, copy: source, map: map) }
        let binary = sheet?.binary, surround = sheet?.surround
        let letters = sheet?.letterHeights ?? []
        let workingXHeight = Self.xHeight(fromLetterHeights: letters) ?? sheet?.xHeightWithSurround
        let analysis = ImageAnalysis(
            isLightOnDark: isLightOnDark, polarity: polarity, xHeight: workingXHeight.map { $0 / working.factor },
            letterCount: letters.count,
            unevenness: map.map { Self.unevenness(ofMap: $0, lightOnDark: isLightOnDark, excluding: surround?.mask) } ?? 0,
            surroundShare: surround?.share ?? 0)
        return (
            analysis,
            binary.map { MeasuredCopy(binary: $0, xHeight: workingXHeight, surround: surround?.mask, paperTone: surround?.paper ?? 255) }
        )
    }

    // MARK: - Polarity

    /// Votes over square tiles: in a tile that holds text, the marks are the minority, so
    /// the mean lies on the marks' side of the median. Dark marks pull the mean below the
    /// median, light marks above it. Tiles without contrast (blank paper, noise) abstain.
    /// Working per tile keeps the vote right under a shadow or a vignette, where a global
    /// count of dark pixels would not be.
    static func polarity(of gray: PixImage) -> Double {
        let width = gray.width, height = gray.height
        guard let bytes = gray.grayPixels() else { return 0 }  // out of memory: no vote
        let tile = max(16, min(48, min(width, height) / 12))
        guard width >= tile, height >= tile else { return 0 }
        var light = 0, dark = 0
        var histogram = [Int](repeating: 0, count: 256)
        for top in stride(from: 0, through: height - tile, by: tile) {
            for left in stride(from: 0, through: width - tile, by: tile) {
                for index in histogram.indices { histogram[index] = 0 }
                var sum = 0, squares = 0
                for y in top..<(top + tile) {
                    let row = y * width
                    for x in left..<(left + tile) {
                        let value = Int(bytes[row + x])
                        histogram[value] += 1
                        sum += value
                        squares += value * value
                    }
                }
                let count = Double(tile * tile)
                let mean = Double(sum) / count
                let deviation = (Double(squares) / count - mean * mean).squareRoot()
                guard deviation >= 12 else { continue }
                var seen = 0, median = 0
                while seen * 2 < tile * tile {
                    seen += histogram[median]
                    median += 1
                }
                let skew = (mean - Double(median - 1)) / deviation
                if skew > 0.1 { light += 1 } else if skew < -0.1 { dark += 1 }
            }
        }
        guard light + dark >= 4 else { return 0 }
        return Double(light - dark) / Double(light + dark)
    }

    // MARK: - Lighting

    // `unevenness(ofMap:lightOnDark:excluding:)` is in `ImageAnalysis+Surround.swift`, with the
    // background map it reads.

    // MARK: - Letter size

    /// Heights of the connected components that could be letters: at least 4 px tall, not
    /// lines or streaks (width at most 6 × height, height at most 12 × width), and not
    /// taller than a sixth of the image.
    static func letterHeights(in binary: PixImage) -> [Int] {
        letterHeights(of: binary.shapeBoxes(), imageHeight: binary.height)
    }

    /// The heights of the shapes among `boxes` that could be letters, by the rule above.
    static func letterHeights(of boxes: [BoundingBox], imageHeight: Int) -> [Int] {
        let limit = max(8, imageHeight / 6)
        return boxes.compactMap { size in
            let plausible =
                size.height >= shortestLetter && size.width >= 2 && size.height <= limit
                && size.width <= 6 * size.height && size.height <= 12 * size.width
            return plausible ? size.height : nil
        }
    }

    /// The x-height: the most common letter height (the tallest peak of the smoothed
    /// histogram) between half and one and a half times the median, refined as the mean of
    /// the heights within 15 % of that peak. Running text is mostly x-height letters;
    /// ascenders, capitals and descenders form a second, lower peak about 1.4× higher. Nil
    /// when fewer than `minimumPeakShare` of the shapes lie near the peak: not text.
    ///
    /// Sensor noise, JPEG blocks and a screen's pixel grid, thresholded, are thousands of
    /// specks whose heights fall away from the shortest counted (`shortestLetter`) like a
    /// tail: each pair of heights above it holds fewer than the pair below. Their peak then
    /// sits on that floor, the letters' own peak lies well above it, and the page would be
    /// enlarged four times for specks. When the peak is on the floor and the heights fall
    /// away, the x-height is measured again on the shapes from the end of the specks' tail up
    /// (`endOfSpecks(in:)`), and that measurement is kept when it finds a peak; text whose
    /// letters really are that small has no second peak above.
    static func xHeight(fromLetterHeights heights: [Int]) -> Double? {
        guard let measured = heightPeak(of: heights) else { return nil }
        guard measured.peak <= shortestLetter + 1, risesFromSpecks(heights) else { return measured.xHeight }
        let end = endOfSpecks(in: heights)
        return heightPeak(of: heights.filter { $0 >= end })?.xHeight ?? measured.xHeight
    }

    /// Where the specks' tail ends: the first height from twice `shortestLetter` up that
    /// holds no more of `heights` than the next one does (the tail stops falling there).
    static func endOfSpecks(in heights: [Int]) -> Int {
        var counts: [Int: Int] = [:]
        for height in heights { counts[height, default: 0] += 1 }
        let tallest = heights.max() ?? 0
        var height = 2 * shortestLetter
        while height < tallest, counts[height, default: 0] > counts[height + 1, default: 0] { height += 1 }
        return height
    }

    /// Whether the counts of `heights` in the pairs of heights from `shortestLetter` up fall
    /// strictly, pair after pair, over the first three pairs: the tail of specks, not letters.
    static func risesFromSpecks(_ heights: [Int]) -> Bool {
        let pairs = (0..<3).map { pair in
            heights.count { $0 >= shortestLetter + 2 * pair && $0 < shortestLetter + 2 * pair + 2 }
        }
        return pairs[0] > pairs[1] && pairs[1] > pairs[2]
    }

    /// The tallest peak of the smoothed histogram of `heights` between half and one and a
    /// half times their median, and the mean of the heights within 15 % of it; nil for fewer
    /// than `minimumLetterCount` heights or a peak holding under `minimumPeakShare` of them.
    private static func heightPeak(of heights: [Int]) -> (peak: Int, xHeight: Double)? {
        guard heights.count >= minimumLetterCount else { return nil }
        let sorted = heights.sorted()
        let median = Double(sorted[sorted.count / 2])
        let largest = sorted[sorted.count - 1]
        var histogram = [Double](repeating: 0, count: largest + 2)
        for height in sorted { histogram[height] += 1 }
        let radius = max(1, Int((median * 0.06).rounded()))
        let low = max(1, Int((median * 0.5).rounded(.down)))
        let high = min(largest, Int((median * 1.5).rounded(.up)))
        guard low <= high else { return (Int(median), median) }
        var peak = low, best = -1.0
        for height in low...high {
            var total = 0.0
            for other in max(0, height - radius)...min(largest, height + radius) { total += histogram[other] }
            if total > best {
                best = total
                peak = height
            }
        }
        let near = sorted.filter { abs(Double($0 - peak)) <= max(1, Double(peak) * 0.15) }
        guard Double(near.count) >= minimumPeakShare * Double(sorted.count) else { return nil }
        return (peak, Double(near.reduce(0, +)) / Double(near.count))
    }
}

/// The reduced, thresholded copy an image was measured on (dark marks black), kept for the
/// tilt measurement after the image has been scaled, inverted and flattened.
struct MeasuredCopy: Sendable {
    /// The 1-bit copy, without the surround.
    let binary: PixImage
    /// The text's x-height in the copy's pixels, when one was measured.
    let xHeight: Double?
    /// The dark surround of a photographed sheet (1-bit, set where the table is, at a quarter
    /// of the copy's size), when there is one.
    var surround: PixImage? = nil
    /// The grey level of the paper in the copy with dark marks (the background map's 95th
    /// percentile), which the surround is painted in.
    var paperTone: UInt8 = 255

    /// The copy turned clockwise by a multiple of 90°.
    func rotated(clockwiseDegrees degrees: Int) throws(SnapPoemError) -> MeasuredCopy {
        func turn(_ pix: PixImage) throws(SnapPoemError) -> PixImage {
            try ImagePreprocessor.rotated(PoemImage(pix: pix), clockwiseDegrees: degrees).pix
        }
        let turnedSurround: PixImage? = if let surround { try turn(surround) } else { nil }
        return MeasuredCopy(binary: try turn(binary), xHeight: xHeight, surround: turnedSurround, paperTone: paperTone)
    }
}

/// A reduced grey copy of an image, on which measurements run.
struct WorkingCopy {
    /// The reduced 8-bit grey image.
    let gray: PixImage
    /// Its size relative to the original (at most 1).
    let factor: Double

    /// Reduces `gray` (8-bit) so that its longer side is at most `maxSide`, by area
    /// averaging (`pixScaleAreaMap`), which keeps thin strokes. Nil for images under 24 px
    /// a side, which are too small to measure.
    init?(_ gray: PixImage, maxSide: Int = ImageAnalysis.workingSide) {
        guard min(gray.width, gray.height) >= 24 else { return nil }
        let longest = max(gray.width, gray.height)
        if longest <= maxSide {
            self.gray = gray
            self.factor = 1
            return
        }
        let factor = Float(maxSide) / Float(longest)
        // From 0.7 on, Leptonica's area map warns on standard error and scales with
        // `pixScaleGeneral` without sharpening: ask for that at once (not `pixScale`, which
        // sharpens, and made photo-inverted.png's light measure uneven, 0.56).
        let reducing: (PixPointer) -> PixPointer? =
            factor >= 0.7 ? { pixScaleGeneral($0, factor, factor, 0, 0) } : { pixScaleAreaMap($0, factor, factor) }
        guard let reduced = gray.attempt(reducing) else { return nil }
        self.gray = reduced
        self.factor = Double(reduced.width) / Double(gray.width)
    }

    /// The copy, inverted when `invert` is set; nil when Leptonica cannot allocate it.
    func oriented(invert: Bool) -> PixImage? {
        invert ? gray.attempt { pixInvert(nil, $0) } : gray
    }

    /// A working copy flattened and thresholded (Otsu) into black marks on white. Nil when
    /// the marks differ from the paper by less than `ImageAnalysis.minimumContrast` grey
    /// levels (a blank page: what Otsu would split there is paper texture), or when
    /// Leptonica cannot process it.
    static func binarized(_ source: PixImage) -> PixImage? {
        guard let flat = try? ImagePreprocessor.flattenedBackground(PoemImage(pix: source), xHeight: nil).pix else { return nil }
        var threshold: Int32 = 0, marks: Int32 = 0, paper: Int32 = 0
        guard pixSplitDistributionFgBg(flat.pointer, 0.1, 1, &threshold, &marks, &paper, nil) == 0,
            Int(paper - marks) >= ImageAnalysis.minimumContrast
        else { return nil }
        return flat.attempt { pixThresholdToBinary($0, threshold) }
    }
}

extension PixImage {
    /// Thresholds an 8-bit grey image at its Otsu split (`pixSplitDistributionFgBg`,
    /// `pixThresholdToBinary`): darker pixels become black. The split's histogram takes every
    /// `histogramSampling`-th pixel of every `histogramSampling`-th row (1: every pixel).
    /// Nil on failure.
    func otsuBinarized(histogramSampling: Int = 1) -> PixImage? {
        var threshold: Int32 = 0
        guard pixSplitDistributionFgBg(pointer, 0.1, Int32(histogramSampling), &threshold, nil, nil, nil) == 0 else { return nil }
        return attempt { pixThresholdToBinary($0, threshold) }
    }
}
