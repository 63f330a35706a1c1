import CTesseract
import Foundation

/// The ink of an image that looks like text: letter-sized shapes standing side by side in
/// rows, most of them on one baseline.
///
/// Found on the reduced, flattened and thresholded copy that `ImageAnalysis` measures
/// (`WorkingCopy`), so it costs a few tens of milliseconds on any image; boxes are reported in
/// the image's own pixels. A blank page (too little contrast), paper texture (no common
/// letter height) and drawings (marks that do not sit on a baseline) hold no text ink.
/// Shapes are grouped into rows by neighbourhood, not by horizontal bands, so rows may be
/// tilted by a few degrees.
public struct TextInk: Sendable, Equatable {
    /// One row of letter-sized shapes: a line of text, or part of one (rows break where the
    /// gap between two shapes is wider than `TextInk.widestGap`).
    public struct Row: Sendable, Equatable {
        /// The row's shapes, left to right, in the image's pixels.
        public var shapes: [BoundingBox]
        /// The box around them.
        public var box: BoundingBox
        /// How far the row's baseline falls per pixel to the right (positive: the text is
        /// tilted clockwise).
        public var slope: Double
    }

    /// The typical height of a lower-case letter, in the image's pixels.
    public var xHeight: Double
    /// The rows of text-like shapes, top to bottom.
    public var rows: [Row]
    /// Whether the image could be measured at all: false when it is too small for the
    /// measuring copy or too faint to threshold (no rows then says nothing about its text).
    var wasMeasured = true

    /// How many text-like shapes there are.
    public var shapeCount: Int { rows.reduce(0) { $0 + $1.shapes.count } }

    /// The tilt of the rows that reach into `region`, in degrees (positive: clockwise), from
    /// the median of their baselines' slopes; 0 when none does.
    public func tilt(within region: BoundingBox) -> Double {
        let slopes = rows.filter { $0.box.intersects(region) }.map(\.slope).sorted()
        guard !slopes.isEmpty else { return 0 }
        return atan(slopes[slopes.count / 2]) * 180 / Double.pi
    }

    /// The widest gap, in x-heights, between two neighbouring shapes of one row. Word
    /// spaces are 0.3–1 x-height, even in justified lines.
    public static let widestGap = 1.5
    /// The fewest shapes that make a row.
    public static let fewestShapesInRow = 5
    /// The least share of a row's shapes that sit on its baseline (within
    /// `baselineTolerance`): letters do, apart from descenders (about one in five); the
    /// leaves of a drawn tree or specks of texture do not.
    public static let leastShareOnBaseline = 0.6
    /// How far, in x-heights, a shape's bottom may be from the row's fitted baseline to sit
    /// on it.
    public static let baselineTolerance = 0.2

    /// Finds the text-like ink of `image`.
    ///
    /// - Parameters:
    ///   - image: the image to search, as Tesseract sees it.
    ///   - lightOnDark: the text is lighter than its ground (the image is inverted first).
    ///   - region: only shapes whose centre lies in this rectangle count; nil for all.
    /// - Returns: the rows found; none for an image without text-like ink.
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate the measuring
    ///   copy: no ink found would wrongly say that nothing was left unread.
    public static func find(
        in image: PoemImage, lightOnDark: Bool = false, within region: BoundingBox? = nil
    ) throws(SnapPoemError) -> TextInk {
        let empty = TextInk(xHeight: 0, rows: [])
        let unmeasured = TextInk(xHeight: 0, rows: [], wasMeasured: false)
        let gray = try ImagePreprocessor.grayscale(image)
        guard let working = WorkingCopy(gray.pix) else { return unmeasured }  // too small to measure
        guard let source = working.oriented(invert: lightOnDark) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "looking for text-like ink")
        }
        guard let thresholded = WorkingCopy.binarized(source) else { return unmeasured }
        // The dark table around a photographed sheet is no text: a page read as it is (the
        // surround not cleared) would have its grain read again, one region at a time.
        let sheet = ImageAnalysis.sheetMarks(of: thresholded, copy: source, map: ImageAnalysis.backgroundMap(of: source))
        let binary = sheet.binary, boxes = sheet.shapes, heights = sheet.letterHeights
        guard let xHeight = ImageAnalysis.xHeight(fromLetterHeights: heights) else { return empty }
        let bounds = LetterBounds(xHeight: xHeight, imageWidth: binary.width, imageHeight: binary.height)
        let scale = 1 / working.factor
        var letters = boxes.filter(bounds.admits)
        if let region {
            let inWorking = region.scaled(by: working.factor)
            letters = letters.filter { inWorking.contains(x: $0.centerX, y: $0.centerY) }
        }
        let rows = Self.rows(of: letters, xHeight: xHeight).map { row in
            let scaled = row.shapes.map { $0.scaled(by: scale) }
            return Row(shapes: scaled, box: BoundingBox.enclosing(scaled), slope: row.slope)
        }
        return TextInk(xHeight: xHeight * scale, rows: rows.sorted { $0.box.top < $1.box.top })
    }

    /// Groups letter-sized shapes into text-like rows: neighbours (a gap of at most
    /// `widestGap` x-heights, overlapping by half the lower one's height, centres less than
    /// 0.75 x-height apart) are joined; groups of at least `fewestShapesInRow` shapes, most
    /// of which sit on one fitted baseline, are rows.
    static func rows(of shapes: [BoundingBox], xHeight: Double) -> [(shapes: [BoundingBox], slope: Double)] {
        let order = shapes.indices.sorted { shapes[$0].left < shapes[$1].left }
        var groups = DisjointSets(count: shapes.count)
        let reach = Int((widestGap * xHeight).rounded(.up))
        for (position, index) in order.enumerated() {
            let shape = shapes[index]
            for other in order[(position + 1)...] {
                let next = shapes[other]
                if next.left > shape.right + reach { break }
                let overlap = min(shape.bottom, next.bottom) - max(shape.top, next.top)
                let lower = min(shape.height, next.height)
                guard Double(overlap) >= 0.5 * Double(lower),
                    abs(shape.centerY - next.centerY) <= 0.75 * xHeight
                else { continue }
                groups.join(index, other)
            }
        }
        var members: [Int: [BoundingBox]] = [:]
        for index in shapes.indices { members[groups.root(of: index), default: []].append(shapes[index]) }
        return members.values.compactMap { group in
            guard group.count >= fewestShapesInRow, let slope = baselineSlope(of: group, xHeight: xHeight) else { return nil }
            return (group.sorted { $0.left < $1.left }, slope)
        }
    }

    /// The slope of the straight baseline most shapes of a group sit on, or nil when they do
    /// not: a least-squares line through their bottoms, fitted again without the shapes more
    /// than 0.35 x-height off it (descenders), must have `leastShareOnBaseline` of them within
    /// `baselineTolerance`.
    static func baselineSlope(of group: [BoundingBox], xHeight: Double) -> Double? {
        func fit(_ points: [BoundingBox]) -> (slope: Double, intercept: Double)? {
            let n = Double(points.count)
            let xs = points.map(\.centerX), ys = points.map { Double($0.bottom) }
            let meanX = xs.reduce(0, +) / n, meanY = ys.reduce(0, +) / n
            var sxy = 0.0, sxx = 0.0
            for (x, y) in zip(xs, ys) {
                sxy += (x - meanX) * (y - meanY)
                sxx += (x - meanX) * (x - meanX)
            }
            guard sxx > 0 else { return nil }
            let slope = sxy / sxx
            return (slope, meanY - slope * meanX)
        }
        func offset(_ box: BoundingBox, _ line: (slope: Double, intercept: Double)) -> Double {
            abs(Double(box.bottom) - (line.slope * box.centerX + line.intercept))
        }
        guard let first = fit(group) else { return nil }
        let core = group.filter { offset($0, first) <= 0.35 * xHeight }
        guard core.count >= 2, let line = fit(core) else { return nil }
        let onLine = group.count { offset($0, line) <= baselineTolerance * xHeight }
        return Double(onLine) >= leastShareOnBaseline * Double(group.count) ? line.slope : nil
    }
}

/// Union–find over `0..<count`, with path halving.
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(of element: Int) -> Int {
        var current = element
        while parent[current] != current {
            parent[current] = parent[parent[current]]
            current = parent[current]
        }
        return current
    }

    mutating func join(_ first: Int, _ second: Int) {
        let a = root(of: first), b = root(of: second)
        if a != b { parent[max(a, b)] = min(a, b) }
    }
}

extension BoundingBox {
    /// The horizontal centre.
    var centerX: Double { Double(left + right) / 2 }
    /// The vertical centre.
    var centerY: Double { Double(top + bottom) / 2 }

    /// Whether the point lies inside (left and top inclusive, right and bottom exclusive).
    func contains(x: Double, y: Double) -> Bool {
        x >= Double(left) && x < Double(right) && y >= Double(top) && y < Double(bottom)
    }

    /// The box with every edge multiplied by `factor`, rounded outwards.
    func scaled(by factor: Double) -> BoundingBox { scaled(x: factor, y: factor) }

    /// The box with its left and right edges multiplied by `x`, its top and bottom by `y`,
    /// rounded outwards.
    func scaled(x: Double, y: Double) -> BoundingBox {
        BoundingBox(
            left: Int((Double(left) * x).rounded(.down)), top: Int((Double(top) * y).rounded(.down)),
            right: Int((Double(right) * x).rounded(.up)), bottom: Int((Double(bottom) * y).rounded(.up)))
    }

    /// The box moved by `dx` to the right and `dy` down.
    func offsetBy(dx: Int, dy: Int) -> BoundingBox {
        BoundingBox(left: left + dx, top: top + dy, right: right + dx, bottom: bottom + dy)
    }

    /// The smallest box around `boxes` (an empty box at the origin when there are none).
    static func enclosing(_ boxes: [BoundingBox]) -> BoundingBox {
        guard let first = boxes.first else { return BoundingBox(left: 0, top: 0, right: 0, bottom: 0) }
        return boxes.dropFirst().reduce(first) { $0.union($1) }
    }

    /// The smallest box around both.
    func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            left: min(left, other.left), top: min(top, other.top), right: max(right, other.right),
            bottom: max(bottom, other.bottom))
    }

    /// Whether the two boxes share any pixel.
    func intersects(_ other: BoundingBox) -> Bool {
        left < other.right && other.left < right && top < other.bottom && other.top < bottom
    }

    /// The box grown by `dx` on the left and right and `dy` at the top and bottom.
    func expanded(by dx: Int, _ dy: Int) -> BoundingBox {
        BoundingBox(left: left - dx, top: top - dy, right: right + dx, bottom: bottom + dy)
    }

    /// The part of the box inside `0..<width` × `0..<height`.
    func clipped(width: Int, height: Int) -> BoundingBox {
        let clippedLeft = min(max(left, 0), width), clippedTop = min(max(top, 0), height)
        return BoundingBox(
            left: clippedLeft, top: clippedTop, right: min(max(right, clippedLeft), width),
            bottom: min(max(bottom, clippedTop), height))
    }
}
