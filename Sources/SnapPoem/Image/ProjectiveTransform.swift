import Foundation

/// A plane projective transformation (a homography): the map that takes a photographed
/// sheet's four corners to a rectangle's, and every straight line to a straight line.
///
/// A point (x, y) goes to ((a·x + b·y + c) ÷ (g·x + h·y + 1), (d·x + e·y + f) ÷ (g·x + h·y + 1)),
/// with `coefficients` = [a, b, c, d, e, f, g, h]: Leptonica's order (`projectiveXformPt`).
struct ProjectiveTransform: Sendable, Equatable {
    /// a, b, c, d, e, f, g, h, as above.
    let coefficients: [Double]

    /// The transformation that takes each of the four points `sources` to the point of
    /// `destinations` at the same place; nil when three of either lie on one line (no such
    /// transformation, or not a unique one).
    init?(mapping sources: [ImagePoint], to destinations: [ImagePoint]) {
        guard sources.count == 4, destinations.count == 4 else { return nil }
        // Two equations per pair, in the eight unknowns: a·x + b·y + c − g·x·u − h·y·u = u and
        // d·x + e·y + f − g·x·v − h·y·v = v.
        var rows: [[Double]] = []
        for (source, destination) in zip(sources, destinations) {
            let x = source.x, y = source.y, u = destination.x, v = destination.y
            rows.append([x, y, 1, 0, 0, 0, -x * u, -y * u, u])
            rows.append([0, 0, 0, x, y, 1, -x * v, -y * v, v])
        }
        guard let solution = Self.solve(rows) else { return nil }
        coefficients = solution
    }

    /// Where `point` goes; a point on the transformation's horizon (which no point of a
    /// photographed sheet is) goes to infinity.
    func callAsFunction(_ point: ImagePoint) -> ImagePoint {
        let c = coefficients
        let denominator = c[6] * point.x + c[7] * point.y + 1
        return ImagePoint(
            x: (c[0] * point.x + c[1] * point.y + c[2]) / denominator,
            y: (c[3] * point.x + c[4] * point.y + c[5]) / denominator)
    }

    /// Solves the 8 × 8 system whose augmented rows are `rows`, by Gaussian elimination with
    /// partial pivoting; nil when it is singular.
    private static func solve(_ rows: [[Double]]) -> [Double]? {
        var matrix = rows
        let count = matrix.count
        let scale = matrix.lazy.flatMap { $0.prefix(count) }.map(abs).max() ?? 0
        guard scale > 0 else { return nil }
        for column in 0..<count {
            guard let pivot = (column..<count).max(by: { abs(matrix[$0][column]) < abs(matrix[$1][column]) }),
                abs(matrix[pivot][column]) > 1e-12 * scale
            else { return nil }
            matrix.swapAt(column, pivot)
            for row in (column + 1)..<count {
                let factor = matrix[row][column] / matrix[column][column]
                guard factor != 0 else { continue }
                for index in column...count { matrix[row][index] -= factor * matrix[column][index] }
            }
        }
        var solution = [Double](repeating: 0, count: count)
        for row in stride(from: count - 1, through: 0, by: -1) {
            var value = matrix[row][count]
            for index in (row + 1)..<count { value -= matrix[row][index] * solution[index] }
            solution[row] = value / matrix[row][row]
        }
        return solution.allSatisfy(\.isFinite) ? solution : nil
    }
}
