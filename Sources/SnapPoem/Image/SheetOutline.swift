import CTesseract
import Foundation

/// The four straight edges of a sheet photographed on a table, found in the surround mask
/// that `ImageAnalysis` makes (set where the table is, at about a quarter of the measuring
/// copy's size): what the keystone correction (`ImagePreprocessor.keystoneCorrected`) maps onto a
/// rectangle.
///
/// The sheet is the largest 4-connected part of the mask that is not table. Its corners are
/// first taken as its extreme pixels along the two diagonals (the least and greatest x + y
/// and x − y), which is right for a sheet turned by less than 45°. Each edge is then fitted
/// with a straight line (total least squares) through the sheet's outermost pixels between
/// two corners, leaving out `cornerTrim` of its length at each end, where blur, the light and
/// the mask's coarse sampling round the corners; the corners are where the fitted lines meet.
struct SheetOutline: Sendable, Equatable {
    /// Top left, top right, bottom right, bottom left, in the mask's pixel coordinates.
    var corners: [ImagePoint]
    /// The root-mean-square distance, in mask pixels, of an edge's pixels from its fitted
    /// line, for the least straight of the four edges: about 0.3 for a flat sheet, more for
    /// the curled edge of a book's page.
    var worstEdgeResidual: Double

    /// The share of an edge's length at each end that its line is not fitted to.
    static let cornerTrim = 0.12
    /// The least share of the mask the sheet covers.
    static let smallestSheet = 0.2
    /// How far, in mask pixels, the surround mask reaches over the sheet's edge: it is grown
    /// by one pixel to take the edge in (`ImageAnalysis.surround`), so the fitted edges are
    /// moved out by as much.
    static let maskGrowth = 1.0
    /// The largest share of an edge's pixels that may lie on the mask's border: more, and
    /// the photograph cuts the sheet off there, so that edge is the frame's, not the sheet's.
    static let largestShareOnBorder = 0.05

    /// The outline of the sheet in `surround` (1-bit, set where the table is); nil when
    /// there is no sheet of at least `smallestSheet` of the mask, when an edge runs along the
    /// mask's border, or when the edges do not meet in a convex quadrilateral with its
    /// corners in the picture.
    init?(inSurround surround: PixImage) {
        guard surround.depth == 1, let grey = surround.attempt({ pixConvertTo8($0, 0) }), let pixels = grey.grayPixels()
        else { return nil }
        let width = grey.width, height = grey.height
        guard width >= 16, height >= 16 else { return nil }
        // pixConvertTo8 makes a set (table) pixel 0 and an unset (sheet) one 255.
        guard let sheet = Self.largestRegion(width: width, height: height, where: { pixels[$0] != 0 }),
            Double(sheet.count) >= Self.smallestSheet * Double(width * height)
        else { return nil }

        // The sheet's extent in every row and column, and its extreme pixels on the diagonals.
        var rowFirst = [Int](repeating: Int.max, count: height), rowLast = [Int](repeating: -1, count: height)
        var columnFirst = [Int](repeating: Int.max, count: width), columnLast = [Int](repeating: -1, count: width)
        var topLeft = (x: 0, y: 0, key: Int.max), bottomRight = (x: 0, y: 0, key: Int.min)
        var topRight = (x: 0, y: 0, key: Int.min), bottomLeft = (x: 0, y: 0, key: Int.max)
        for index in sheet {
            let x = index % width, y = index / width
            rowFirst[y] = min(rowFirst[y], x)
            rowLast[y] = max(rowLast[y], x)
            columnFirst[x] = min(columnFirst[x], y)
            columnLast[x] = max(columnLast[x], y)
            if x + y < topLeft.key { topLeft = (x, y, x + y) }
            if x + y > bottomRight.key { bottomRight = (x, y, x + y) }
            if x - y > topRight.key { topRight = (x, y, x - y) }
            if x - y < bottomLeft.key { bottomLeft = (x, y, x - y) }
        }

        // Each edge's outermost pixels between its two corners, as points on the pixel edge
        // that borders the table.
        func span(_ from: Int, _ to: Int) -> [Int] {
            let low = min(from, to), high = max(from, to)
            let trim = Int((Double(high - low) * Self.cornerTrim).rounded())
            return low + trim <= high - trim ? Array((low + trim)...(high - trim)) : []
        }
        let top = span(topLeft.x, topRight.x).compactMap { x in
            columnLast[x] >= 0 ? ImagePoint(x: Double(x) + 0.5, y: Double(columnFirst[x])) : nil
        }
        let bottom = span(bottomLeft.x, bottomRight.x).compactMap { x in
            columnLast[x] >= 0 ? ImagePoint(x: Double(x) + 0.5, y: Double(columnLast[x] + 1)) : nil
        }
        let left = span(topLeft.y, bottomLeft.y).compactMap { y in
            rowLast[y] >= 0 ? ImagePoint(x: Double(rowFirst[y]), y: Double(y) + 0.5) : nil
        }
        let right = span(topRight.y, bottomRight.y).compactMap { y in
            rowLast[y] >= 0 ? ImagePoint(x: Double(rowLast[y] + 1), y: Double(y) + 0.5) : nil
        }
        let onBorder: [(points: [ImagePoint], touches: (ImagePoint) -> Bool)] = [
            (top, { $0.y <= 0 }), (bottom, { $0.y >= Double(height) }), (left, { $0.x <= 0 }),
            (right, { $0.x >= Double(width) }),
        ]
        for (points, touches) in onBorder {
            guard points.count >= 8, Double(points.count { touches($0) }) <= Self.largestShareOnBorder * Double(points.count)
            else { return nil }
        }
        let centre = ImagePoint(
            x: Double(topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4 + 0.5,
            y: Double(topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4 + 0.5)
        guard let topLine = FittedLine(through: top)?.moved(awayFrom: centre, by: Self.maskGrowth),
            let rightLine = FittedLine(through: right)?.moved(awayFrom: centre, by: Self.maskGrowth),
            let bottomLine = FittedLine(through: bottom)?.moved(awayFrom: centre, by: Self.maskGrowth),
            let leftLine = FittedLine(through: left)?.moved(awayFrom: centre, by: Self.maskGrowth),
            let corner0 = leftLine.meeting(topLine), let corner1 = topLine.meeting(rightLine),
            let corner2 = rightLine.meeting(bottomLine), let corner3 = bottomLine.meeting(leftLine)
        else { return nil }
        let corners = [corner0, corner1, corner2, corner3]
        // A sheet seen whole has its corners in the picture: edges that meet far outside it
        // (two nearly parallel neighbours) are not a sheet's.
        let reach = 0.02 * Double(max(width, height))
        guard Self.isConvex(corners), Self.area(corners) >= Self.smallestSheet * Double(width * height),
            corners.allSatisfy({
                (-reach...(Double(width) + reach)).contains($0.x) && (-reach...(Double(height) + reach)).contains($0.y)
            })
        else { return nil }
        self.corners = corners
        self.worstEdgeResidual = [topLine, rightLine, bottomLine, leftLine].map(\.residual).max() ?? 0
    }

    /// Creates an outline from its parts.
    init(corners: [ImagePoint], worstEdgeResidual: Double) {
        self.corners = corners
        self.worstEdgeResidual = worstEdgeResidual
    }

    /// The pixel indices (row-major) of the largest 4-connected region of a `width` ×
    /// `height` grid whose pixels satisfy `belongs`.
    private static func largestRegion(width: Int, height: Int, where belongs: (Int) -> Bool) -> [Int]? {
        var seen = [Bool](repeating: false, count: width * height)
        var largest: [Int] = []
        var stack: [Int] = []
        for start in 0..<(width * height) where !seen[start] && belongs(start) {
            var region: [Int] = []
            seen[start] = true
            stack.append(start)
            while let index = stack.popLast() {
                region.append(index)
                let x = index % width
                func visit(_ neighbour: Int) {
                    guard !seen[neighbour], belongs(neighbour) else { return }
                    seen[neighbour] = true
                    stack.append(neighbour)
                }
                if x > 0 { visit(index - 1) }
                if x < width - 1 { visit(index + 1) }
                if index >= width { visit(index - width) }
                if index + width < width * height { visit(index + width) }
            }
            if region.count > largest.count { largest = region }
        }
        return largest.isEmpty ? nil : largest
    }

    /// Whether the quadrilateral is convex and its corners go clockwise on the screen (top
    /// left, top right, bottom right, bottom left, with y down): the other winding would
    /// map the sheet onto a mirrored rectangle.
    static func isConvex(_ corners: [ImagePoint]) -> Bool {
        corners.indices.allSatisfy { index in
            let a = corners[index], b = corners[(index + 1) % 4], c = corners[(index + 2) % 4]
            return (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) > 0
        }
    }

    /// The area of the quadrilateral (the shoelace formula).
    static func area(_ corners: [ImagePoint]) -> Double {
        abs(
            corners.indices.reduce(0.0) { sum, index in
                let a = corners[index], b = corners[(index + 1) % corners.count]
                return sum + a.x * b.y - b.x * a.y
            }) / 2
    }
}

/// A straight line fitted to points by total least squares: through their mean, along the
/// direction in which they spread most.
struct FittedLine: Sendable, Equatable {
    /// A point on the line: the points' mean.
    var through: ImagePoint
    /// The line's direction, of length 1.
    var direction: ImagePoint
    /// The root-mean-square distance of the points from the line.
    var residual: Double

    /// The line through `points`; nil for fewer than two points, or points all in one place.
    init?(through points: [ImagePoint]) {
        guard points.count >= 2 else { return nil }
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / count, meanY = points.reduce(0) { $0 + $1.y } / count
        var xx = 0.0, xy = 0.0, yy = 0.0
        for point in points {
            let dx = point.x - meanX, dy = point.y - meanY
            xx += dx * dx
            xy += dx * dy
            yy += dy * dy
        }
        guard xx + yy > 0 else { return nil }
        // The principal axis of the 2 × 2 scatter matrix.
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        let direction = ImagePoint(x: cos(angle), y: sin(angle))
        let squares = points.reduce(0.0) { sum, point in
            let distance = (point.x - meanX) * -direction.y + (point.y - meanY) * direction.x
            return sum + distance * distance
        }
        self.through = ImagePoint(x: meanX, y: meanY)
        self.direction = direction
        self.residual = (squares / count).squareRoot()
    }

    /// The line moved by `distance` along its normal, away from `point`.
    func moved(awayFrom point: ImagePoint, by distance: Double) -> FittedLine {
        let normal = ImagePoint(x: -direction.y, y: direction.x)
        let side = (through.x - point.x) * normal.x + (through.y - point.y) * normal.y
        let sign = side >= 0 ? 1.0 : -1.0
        var moved = self
        moved.through = ImagePoint(x: through.x + sign * distance * normal.x, y: through.y + sign * distance * normal.y)
        return moved
    }

    /// Where this line meets `other`; nil when they are parallel, or nearly.
    func meeting(_ other: FittedLine) -> ImagePoint? {
        let cross = direction.x * other.direction.y - direction.y * other.direction.x
        guard abs(cross) > 1e-6 else { return nil }
        let dx = other.through.x - through.x, dy = other.through.y - through.y
        let along = (dx * other.direction.y - dy * other.direction.x) / cross
        return ImagePoint(x: through.x + along * direction.x, y: through.y + along * direction.y)
    }
}
