import CTesseract

/// How curved the text lines of a page are, as Leptonica's page dewarper measured them, and
/// whether the page was flattened (`ImagePreprocessor.dewarped`).
public struct PageCurvature: Sendable, Equatable, Codable {
    /// The text lines the curvature was measured on.
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
/// uneven lines can fail), or on a page in several columns; for the first two, a simpler
/// model fitted to every line at once takes over (`LineFit`), which also decides first, from one
/// pass of the line finder, whether a page is curved at all.
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
    /// itself and nil when fewer than four text lines could be measured.
    ///
    /// - Parameters:
    ///   - image: the page, after deskewing.
    ///   - xHeight: the print's x-height in `image`'s pixels, when known: how far the lines
    ///     may stray from one shared shape (`LineFit.isCurved(xHeight:)`).
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate.
    public static func dewarped(_ image: PoemImage, xHeight: Double? = nil) throws(SnapPoemError) -> (
        image: PoemImage, curvature: PageCurvature?
    ) {
        try dewarped(image, measuringOnCopyReducedBy: 1, xHeight: xHeight)
    }

    /// `dewarped(_:)`, with the first measurement (`LineFit`, which decides whether the page
    /// is curved at all) made on a copy `reduction` times smaller, sampled, when that is more
    /// than 1: an enlarged page's lines are found at the scale it was photographed at
    /// (`PreprocessingReport.lineFindingReduction`). The curvatures are those of the full
    /// image; a curved page is modelled at full size. With `glancing`, a copy half as large
    /// again is looked at first (`glance(at:reduction:xHeight:)`): a page flat there is
    /// reported with that copy's figures.
    static func dewarped(
        _ image: PoemImage, measuringOnCopyReducedBy reduction: Double, xHeight: Double? = nil, glancing: Bool = true
    ) throws(SnapPoemError) -> (image: PoemImage, curvature: PageCurvature?) {
        let gray = try grayscale(image)
        guard gray.width >= 100, gray.height >= 100 else { return (gray, nil) }
        try gray.pix.ensureRoomForOperation("dewarpBuildPageModel")
        // The page thresholded at full size, made when first needed: a flat page measured on
        // a reduced copy never needs it.
        var binaryOwner: PixPointer?
        defer { pixDestroy(&binaryOwner) }
        func fullBinary() throws(SnapPoemError) -> PixPointer {
            if let binaryOwner { return binaryOwner }
            guard let made = pixThresholdToBinary(gray.pix.pointer, 130) else {
                throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "thresholding the page to measure its curvature")
            }
            binaryOwner = made
            return made
        }
        // A glance at half that scale (a quarter of the pixels) settles most flat pages:
        // lines that sag less than half of `leastSag` there are not curved at full scale.
        if glancing, let glance = try glance(at: gray, reduction: reduction, xHeight: xHeight), glance.sag < leastSag / 2 {
            return (gray, glance.curvature)
        }
        // Then the shape of every line at once, from one pass of Leptonica's text line
        // finder: a flat page stops here.
        let first: LineFit?
        if let sampled = try sampledDown(gray, by: reduction, minimumSide: 100) {
            first = try reducedFit(gray, sampled: sampled)
        } else {
            first = LineFit(binary: try fullBinary(), width: gray.width, height: gray.height)
        }
        guard let fit = first else { return (gray, nil) }
        guard fit.isCurved(xHeight: xHeight) else { return (gray, fit.curvature) }
        let binary = try fullBinary()
        // A curved page: Leptonica's own model (vertical and horizontal disparity) where it
        // builds one, else the fit's vertical disparity.
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
        guard dewarpBuildPageModel(dewarp, nil) == 0 else {
            // No model of Leptonica's (a poem of short, uneven lines): the fit's own.
            var curvature = fit.curvature
            guard let flattened = try fit.levelled(gray) else { return (gray, curvature) }
            curvature.applied = true
            return (flattened, curvature)
        }
        var curvature = PageCurvature(
            lineCount: Int(dewarp.pointee.nlines), minimumCurvature: Int(dewarp.pointee.mincurv),
            maximumCurvature: Int(dewarp.pointee.maxcurv), applied: false)
        var flattened: PixPointer?
        guard dewarpaApplyDisparity(dewarpa, 0, gray.pix.pointer, 255, 0, 0, &flattened, nil) == 0, let result = flattened else {
            return (gray, curvature)
        }
        curvature.applied = true
        return (PoemImage(pix: PixImage(taking: result)), curvature)
    }

    /// The `LineFit` of a copy of `gray` twice as small as `reduction` asks, sampled; nil when
    /// no fit is found, or the print would be smaller there than `leastGlanceXHeight` (or its
    /// size is not known).
    ///
    /// Leptonica's line finder works on pages reduced to half of 300 dpi (`dewarpaCreate`'s
    /// reduction factor 2), and the fit costs in proportion to the pixels: on the 300-dpi
    /// scans of the held-out set 20–23 ms instead of 120–141 ms, 4–9 ms instead of 12–29 ms
    /// on the other pages. Measured on the held-out set and every sample (BENCHMARKS.md), the
    /// glance finds 0.8–0.9 of the sag the full fit finds on curved pages (the curl sweeps,
    /// the book photos), never half of it; flat pages sag 0.1–2.8 px there, a few 3–6 px,
    /// which the full fit then settles.
    ///
    /// - Throws: `SnapPoemError.outOfMemory`.
    private static func glance(at gray: PoemImage, reduction: Double, xHeight: Double?) throws(SnapPoemError) -> LineFit? {
        guard let xHeight, xHeight / (2 * reduction) >= leastGlanceXHeight,
            let sampled = try sampledDown(gray, by: 2 * reduction, minimumSide: 100)
        else { return nil }
        return try reducedFit(gray, sampled: sampled)
    }

    /// The least x-height, in pixels of the glance's copy, at which `glance(at:…)` looks at a
    /// page: half of `PreprocessingReport.leastLineFindingXHeight`, so that enlarged pages,
    /// whose lines are found at 16 px, are glanced at too (the held-out set's measured in the
    /// glance as at full scale).
    static let leastGlanceXHeight = 8.0

    /// The `LineFit` of `sampled`, a reduced copy of `gray` thresholded as the full page is,
    /// in `gray`'s pixels.
    ///
    /// - Throws: `SnapPoemError.outOfMemory`.
    private static func reducedFit(_ gray: PoemImage, sampled: PoemImage) throws(SnapPoemError) -> LineFit? {
        var reducedOwner = pixThresholdToBinary(sampled.pix.pointer, 130)
        defer { pixDestroy(&reducedOwner) }
        guard let reduced = reducedOwner else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "thresholding the page to measure its curvature")
        }
        return LineFit(
            binary: reduced, width: gray.width, height: gray.height,
            scaleX: Double(gray.width) / Double(sampled.width), scaleY: Double(gray.height) / Double(sampled.height))
    }

    /// The least sag, in pixels, of the fitted line shape (`LineFit`), within the width the
    /// lines cover, for a page to count as curved: about a quarter of the x-height of the
    /// print snap-poem reads.
    static let leastSag = 6.0

    /// How far, in x-heights, the measured line centres may lie from the shape fitted to
    /// them (`LineFit.residual`: the median line's root mean square distance) for a page to
    /// count as curved. Measured (BENCHMARKS.md): on the held-out book photos, the curl sweep
    /// and flat pages the median line lies 1.0–2.0 px from it, under 0.1 x-height; the
    /// strokes of `illustration.png`, a drawing, 6.6 px.
    static let largestLineResidual = 0.2

    /// Solves `matrix · x = vector` by Gaussian elimination with partial pivoting; nil when
    /// the matrix is singular.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var a = matrix, b = vector
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }), abs(a[pivot][column]) > 1e-15 else {
                return nil
            }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                guard factor != 0 else { continue }
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        return (0..<n).map { b[$0] / a[$0][$0] }
    }
}

/// The shape of a page's text lines, fitted to every line at once: the line centres that
/// Leptonica finds (`dewarpGetTextlineCenters`), all of them, short ones included, with one
/// shape shared by every line, y = cᵢ + f(x, y), a cubic in x whose coefficients change
/// linearly down the page, and an intercept cᵢ of each line's own.
///
/// It decides whether a page is curved at all (`isCurved`), before Leptonica's own model is
/// built, and it levels a page that Leptonica's model refuses (fewer than six lines nearly as
/// long as the longest, or not three of them in each half of the page: a poem of short,
/// uneven lines) by a vertical disparity alone: each column is shifted so that every line is
/// level (`levelled(_:)`).
///
/// The shape is known only where lines were measured: outside the band of the page they
/// span (`measuredX`, `measuredY`) it is held at its value on the band's edge, never
/// extrapolated. Four short lines in the middle of a page once fitted a cubic whose
/// extrapolation bent a heading above them out of the picture.
struct LineFit {
    /// The fitted coefficients of f, for x and y normalised to −½…½ across the page.
    let coefficients: [Double]
    let width: Double, height: Double
    /// The normalised x the lines' points cover, and the normalised y from the highest line
    /// to the lowest.
    let measuredX: ClosedRange<Double>, measuredY: ClosedRange<Double>
    /// The curvature record: lines used, Leptonica-style curvatures at the highest and the
    /// lowest measured line.
    let curvature: PageCurvature
    /// The curvature halfway down the page (at the measured line nearest to it when the lines
    /// do not reach so far), in Leptonica's units.
    let middleCurvature: Double
    /// The largest distance, in pixels, between the fitted shape and the straight line through
    /// its ends, within the width the lines cover.
    let sag: Double
    /// How far, in pixels, the lines' points lie from the fitted shape: the median over the
    /// lines of each line's root mean square distance (one line the finder tracked badly
    /// does not decide).
    let residual: Double

    /// Fits the lines of `binary`; nil when fewer than 4 lines of at least 8 points across 15 %
    /// of the width are found, or the fit is singular. `binary` may be a reduced copy of the
    /// `pixelWidth` × `pixelHeight` image: its points are multiplied by `scaleX` and `scaleY`.
    init?(
        binary: PixPointer, width pixelWidth: Int, height pixelHeight: Int, scaleX: Double = 1, scaleY: Double = 1
    ) {
        var centresOwner = dewarpGetTextlineCenters(binary, 0)
        defer { ptaaDestroy(&centresOwner) }
        guard let centres = centresOwner else { return nil }
        let width = Double(pixelWidth), height = Double(pixelHeight)
        var lines: [[(x: Double, y: Double)]] = []
        for index in 0..<ptaaGetCount(centres) {
            var ptaOwner = ptaaGetPta(centres, index, Int32(L_CLONE))
            defer { ptaDestroy(&ptaOwner) }
            guard let pta = ptaOwner else { continue }
            var points: [(x: Double, y: Double)] = []
            for point in 0..<ptaGetCount(pta) {
                var x: Float = 0, y: Float = 0
                ptaGetPt(pta, point, &x, &y)
                points.append((Double(x) * scaleX / width - 0.5, Double(y) * scaleY / height - 0.5))
            }
            guard points.count >= 8, let first = points.first, let last = points.last, last.x - first.x >= 0.15 else { continue }
            lines.append(points)
        }
        guard lines.count >= 4 else { return nil }
        // Least squares with one intercept per line, removed by centring within each line.
        var normal = Array(repeating: Array(repeating: 0.0, count: 6), count: 6)
        var right = Array(repeating: 0.0, count: 6)
        for line in lines {
            let rows = line.map { Self.basis($0.x, $0.y) }
            let meanRow = (0..<6).map { k in rows.map { $0[k] }.reduce(0, +) / Double(rows.count) }
            let meanY = line.map(\.y).reduce(0, +) / Double(line.count)
            for (row, point) in zip(rows, line) {
                let g = (0..<6).map { row[$0] - meanRow[$0] }
                let target = point.y - meanY
                for i in 0..<6 {
                    right[i] += g[i] * target
                    for j in 0..<6 { normal[i][j] += g[i] * g[j] }
                }
            }
        }
        for i in 0..<6 { normal[i][i] += 1e-9 }
        guard let theta = ImagePreprocessor.solve(normal, right) else { return nil }
        coefficients = theta
        self.width = width
        self.height = height
        let xs = lines.flatMap { $0.map(\.x) }.sorted()
        let low = xs[xs.count / 20], high = xs[xs.count - 1 - xs.count / 20]
        let levels = lines.map { line in line.map(\.y).reduce(0, +) / Double(line.count) }
        let spanY = (levels.min() ?? 0)...(levels.max() ?? 0)
        measuredX = (xs.first ?? 0)...(xs.last ?? 0)
        measuredY = spanY
        let rows = [-0.4, 0.0, 0.4].map { $0.clamped(to: spanY) }
        var sag = 0.0
        for y in rows {
            let left = Self.shape(theta, low, y) * height, rightEnd = Self.shape(theta, high, y) * height
            for step in 0...20 {
                let x = low + (high - low) * Double(step) / 20
                let straight = left + (rightEnd - left) * (x - low) / max(high - low, 1e-9)
                sag = max(sag, abs(Self.shape(theta, x, y) * height - straight))
            }
        }
        self.sag = sag
        let lineResiduals = lines.map { line in
            let fitted = line.map { point in zip(Self.basis(point.x, point.y), theta).map { $0 * $1 }.reduce(0, +) }
            let meanFitted = fitted.reduce(0, +) / Double(fitted.count)
            let meanY = line.map(\.y).reduce(0, +) / Double(line.count)
            let squares = zip(fitted, line).map { value, point in
                let off = ((point.y - meanY) - (value - meanFitted)) * height
                return off * off
            }
            return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        }.sorted()
        residual = lineResiduals[(lineResiduals.count - 1) / 2]
        let scale = height / (width * width) * 1_000_000
        middleCurvature = (theta[1] + theta[4] * rows[1]) * scale
        let ends = [spanY.lowerBound, spanY.upperBound].map { y in Int(((theta[1] + theta[4] * y) * scale).rounded()) }
        curvature = PageCurvature(
            lineCount: lines.count, minimumCurvature: ends.min() ?? 0, maximumCurvature: ends.max() ?? 0, applied: false)
    }

    /// Whether the page's lines are curved enough to flatten: the curvature halfway down the
    /// page (or at the measured line nearest to halfway) at least
    /// `ImagePreprocessor.leastCurvature`, a sag of at least `ImagePreprocessor.leastSag`
    /// pixels, and lines that agree on the shape: their points within
    /// `ImagePreprocessor.largestLineResidual` x-heights of it (root mean square), as the
    /// lines of a page of print do, and the strokes of a drawing do not.
    ///
    /// - Parameter xHeight: the print's x-height in pixels; without one,
    ///   `ScalingMode.targetXHeight`.
    func isCurved(xHeight: Double?) -> Bool {
        let letter = xHeight.flatMap { $0 > 0 ? $0 : nil } ?? ScalingMode.targetXHeight
        return abs(middleCurvature) >= Double(ImagePreprocessor.leastCurvature) && sag >= ImagePreprocessor.leastSag
            && residual <= ImagePreprocessor.largestLineResidual * letter
    }

    static func basis(_ x: Double, _ y: Double) -> [Double] { [x, x * x, x * x * x, y * x, y * x * x, y * x * x * x] }

    static func shape(_ theta: [Double], _ x: Double, _ y: Double) -> Double {
        zip(basis(x, y), theta).map { $0 * $1 }.reduce(0, +)
    }

    /// The fitted shape at normalised (`x`, `y`), held at the measured band's edge outside it.
    func measuredShape(_ x: Double, _ y: Double) -> Double {
        Self.shape(coefficients, x.clamped(to: measuredX), y.clamped(to: measuredY))
    }

    /// `gray` with every column shifted so that the fitted lines are level (bilinear in y);
    /// nil when the pixels cannot be read.
    ///
    /// - Throws: `SnapPoemError.outOfMemory`.
    func levelled(_ gray: PoemImage) throws(SnapPoemError) -> PoemImage? {
        try gray.pix.ensureRoomForOperation("levelling curved lines")
        guard let output = pixCreate(Int32(gray.width), Int32(gray.height), 8) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "levelling curved lines")
        }
        let result = PixImage(taking: output)
        let source = gray.pix.pointer
        let sourceWords = Int(pixGetWpl(source)), targetWords = Int(pixGetWpl(output))
        guard pixGetDepth(source) == 8, let sourceData = pixGetData(source), let targetData = pixGetData(output) else { return nil }
        // Leptonica keeps 8-bit pixels in 32-bit words, the first pixel in the high byte.
        func pixel(_ x: Int, _ y: Int) -> Double {
            Double((sourceData[y * sourceWords + x / 4] >> UInt32(8 * (3 - x % 4))) & 0xFF)
        }
        let columns = gray.width, rows = gray.height
        var rowWords = [UInt32](repeating: 0, count: targetWords)
        for y in 0..<rows {
            let normalisedY = Double(y) / height - 0.5
            let reference = measuredShape(0, normalisedY) * height
            for index in rowWords.indices { rowWords[index] = 0 }
            for x in 0..<columns {
                let sourceY = Double(y) + measuredShape(Double(x) / width - 0.5, normalisedY) * height - reference
                var value = 255.0
                if sourceY >= 0, sourceY < Double(rows - 1) {
                    let y0 = Int(sourceY), fraction = sourceY - Double(y0)
                    value = pixel(x, y0) * (1 - fraction) + pixel(x, y0 + 1) * fraction
                }
                rowWords[x / 4] |= UInt32(min(255, max(0, value.rounded()))) << UInt32(8 * (3 - x % 4))
            }
            for index in 0..<targetWords { targetData[y * targetWords + index] = rowWords[index] }
        }
        return PoemImage(pix: result)
    }
}

extension Comparable {
    /// The value brought within `range`.
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
