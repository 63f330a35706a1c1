/// Draws an `AnnotationPlan` on a canvas: tints and outlines, dashed unread regions, the line
/// numbers in the margin, and the legend in the corner with the fewest words.
struct AnnotationPainter {
    let plan: AnnotationPlan
    let style: AnnotationStyle

    /// What was drawn.
    struct Result {
        var image: PoemImage
        var lineLabels: [LineLabel]
        var legend: BoundingBox?
        /// How many marks Leptonica refused to draw (0 unless memory ran out).
        var failures: Int
    }

    /// Counts the marks Leptonica refused, so that a drawing with holes is reported, never
    /// handed over as if it were whole.
    final class Failures {
        var count = 0
        func record(_ drawn: Bool) { if !drawn { count += 1 } }
    }

    /// The light panel behind numbers and the legend, so they read on any photo.
    static let panelColor = RGBColor(hex: 0xFFFFFF)

    func paint(on canvas: consuming DrawingCanvas) -> Result {
        let failures = Failures()
        // On a dark ground a line needs more weight, and a light halo, to be seen.
        let width = plan.lineWidth + (plan.darkGround ? 1 : 0)
        if plan.darkGround {
            for word in plan.words {
                failures.record(canvas.halo(word.corners, color: Self.panelColor, lineWidth: width + 3, opacity: 0.45))
            }
        }
        for word in plan.words where word.change != nil {
            failures.record(canvas.tint(word.corners, color: style.replacedTint))
        }
        for word in plan.words where word.change == nil {
            failures.record(
                canvas.outline(word.corners, color: style.color(for: word.band), lineWidth: width + (word.band == .doubtful ? 1 : 0)))
        }
        for word in plan.words where word.change != nil {
            failures.record(canvas.outline(word.corners, color: style.replacedColor, lineWidth: width + 1))
        }
        for region in plan.unreadRegions {
            failures.record(canvas.dashedOutline(region.corners, color: style.unreadColor, lineWidth: width + 1, dash: 5 * width))
        }
        let labels = style.showsLineNumbers ? drawLineNumbers(on: canvas, failures: failures) : []
        let legend =
            style.showsLegend ? drawLegend(on: canvas, avoiding: plan.words.map(\.bounds) + labels.map(\.bounds), failures: failures) : nil
        return Result(image: canvas.finished(), lineLabels: labels, legend: legend, failures: failures.count)
    }

    // MARK: - Line numbers

    /// Writes each line's number beside it, the numbers of one block in one column: left of
    /// the block when there is room, else right of it, else over the image's left edge.
    private func drawLineNumbers(on canvas: borrowing DrawingCanvas, failures: Failures) -> [LineLabel] {
        // Digits about as tall as the text's capitals.
        guard plan.typicalLineHeight > 0, !plan.lines.isEmpty,
            let font = BitmapFont(digitsAtMost: max(12, 0.5 * plan.typicalLineHeight))
        else { return [] }
        let digits = font.digitHeight
        let gap = max(4, digits * 2 / 3)
        let padding = max(2, digits / 8)
        var labels: [LineLabel] = []
        for block in Set(plan.lines.map(\.block)).sorted() {
            let lines = plan.lines.filter { $0.block == block }
            let widest = lines.map { font.width(of: String($0.number)) }.max() ?? 0
            let fitsLeft = lines.allSatisfy { $0.leftAnchor.x - Double(gap + widest + padding) >= 0 }
            let fitsRight = lines.allSatisfy { $0.rightAnchor.x + Double(gap + widest + padding) <= Double(plan.width) }
            for line in lines {
                let text = String(line.number)
                let textWidth = font.width(of: text)
                let x: Int
                let anchor: ImagePoint
                if fitsLeft || !fitsRight {
                    anchor = line.leftAnchor
                    x = max(padding, Int(anchor.x.rounded()) - gap - textWidth)
                } else {
                    anchor = line.rightAnchor
                    x = Int(anchor.x.rounded()) + gap
                }
                let baseline = min(max(Int(anchor.y.rounded()) + digits / 2, digits + padding), plan.height - padding - 2)
                let panel = BoundingBox(
                    left: x - padding, top: baseline - digits - padding, right: x + textWidth + padding, bottom: baseline + 2 + padding)
                failures.record(canvas.panel(panel, color: Self.panelColor, opacity: 0.75))
                failures.record(canvas.text(text, font: font, x: x, baseline: baseline, color: style.labelColor))
                labels.append(LineLabel(line: line.number, bounds: panel.clipped(width: plan.width, height: plan.height)))
            }
        }
        return labels
    }

    // MARK: - Legend

    /// One row of the legend.
    private enum Entry {
        case band(ConfidenceBand)
        case replaced
        case unread

        func text(_ style: AnnotationStyle) -> String {
            switch self {
            case .band(let band): style.legendText(for: band)
            case .replaced: "replaced"
            case .unread: "text not read"
            }
        }
    }

    /// Draws the legend in the corner where it covers the least of `avoiding`; nil when it
    /// does not fit the image even in the smallest font.
    private func drawLegend(on canvas: borrowing DrawingCanvas, avoiding marks: [BoundingBox], failures: Failures) -> BoundingBox? {
        var entries = ConfidenceBand.allCases.map(Entry.band)
        if plan.words.contains(where: { $0.change != nil }) { entries.append(.replaced) }
        if !plan.unreadRegions.isEmpty { entries.append(.unread) }
        let wanted = max(12, Double(min(plan.width, plan.height)) / 75)
        for size in BitmapFont.sizes.reversed() where Double(size) * BitmapFont.digitHeightPerPoint <= wanted || size == 4 {
            guard let font = BitmapFont(size: size) else { return nil }
            let digits = font.digitHeight
            let padding = max(3, digits / 2)
            let swatchWidth = digits * 3 / 2
            let rowHeight = font.lineHeight
            let textWidth = entries.map { font.width(of: $0.text(style)) }.max() ?? 0
            let legendWidth = padding + swatchWidth + padding + textWidth + padding
            let legendHeight = padding * 2 + rowHeight * entries.count
            guard Double(legendWidth) <= 0.9 * Double(plan.width), Double(legendHeight) <= 0.6 * Double(plan.height) else { continue }
            let box = corner(width: legendWidth, height: legendHeight, avoiding: marks)
            let corners = Self.corners(of: box)
            failures.record(canvas.panel(box, color: Self.panelColor, opacity: 0.88))
            failures.record(canvas.outline(corners, color: RGBColor(hex: 0x999999), lineWidth: 1))
            for (row, entry) in entries.enumerated() {
                let rowTop = box.top + padding + row * rowHeight
                let baseline = rowTop + (rowHeight + digits) / 2 - 2
                let swatch = BoundingBox(
                    left: box.left + padding, top: baseline - digits + 2, right: box.left + padding + swatchWidth, bottom: baseline)
                let swatchCorners = Self.corners(of: swatch)
                let lineWidth = max(2, digits / 8)
                switch entry {
                case .band(let band):
                    failures.record(
                        canvas.outline(
                            swatchCorners, color: style.color(for: band), lineWidth: lineWidth + (band == .doubtful ? 1 : 0)))
                case .replaced:
                    failures.record(canvas.tint(swatchCorners, color: style.replacedTint))
                    failures.record(canvas.outline(swatchCorners, color: style.replacedColor, lineWidth: lineWidth + 1))
                case .unread:
                    failures.record(
                        canvas.dashedOutline(swatchCorners, color: style.unreadColor, lineWidth: lineWidth + 1, dash: max(3, digits / 4)))
                }
                failures.record(
                    canvas.text(entry.text(style), font: font, x: swatch.right + padding, baseline: baseline, color: style.labelColor))
            }
            return box
        }
        return nil
    }

    /// The corner box of `width` × `height` that overlaps `marks` least: top right, bottom
    /// right, bottom left, top left, in that order of preference.
    private func corner(width: Int, height: Int, avoiding marks: [BoundingBox]) -> BoundingBox {
        let margin = 2 * plan.lineWidth
        let right = plan.width - margin, bottom = plan.height - margin
        let candidates = [
            BoundingBox(left: right - width, top: margin, right: right, bottom: margin + height),
            BoundingBox(left: right - width, top: bottom - height, right: right, bottom: bottom),
            BoundingBox(left: margin, top: bottom - height, right: margin + width, bottom: bottom),
            BoundingBox(left: margin, top: margin, right: margin + width, bottom: margin + height),
        ]
        func overlap(_ box: BoundingBox) -> Int {
            marks.reduce(0) { total, mark in
                let across = min(box.right, mark.right) - max(box.left, mark.left)
                let down = min(box.bottom, mark.bottom) - max(box.top, mark.top)
                return total + (across > 0 && down > 0 ? across * down : 0)
            }
        }
        return candidates.min { overlap($0) < overlap($1) } ?? candidates[0]
    }

    /// A box's corners: top left, top right, bottom right, bottom left.
    private static func corners(of box: BoundingBox) -> [ImagePoint] {
        let left = Double(box.left), top = Double(box.top), right = Double(box.right - 1), bottom = Double(box.bottom - 1)
        return [ImagePoint(x: left, y: top), ImagePoint(x: right, y: top), ImagePoint(x: right, y: bottom), ImagePoint(x: left, y: bottom)]
    }
}
