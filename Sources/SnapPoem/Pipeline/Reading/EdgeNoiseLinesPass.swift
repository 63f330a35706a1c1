import Foundation

/// The page's top and bottom lines are emptied when they look like the edge of the paper, a
/// shadow or a band of noise rather than text (`noiseLines`): alone in their block, read with
/// a mean word confidence under the coverage check's bar (`TesseractEngine.isSure`), and
/// touching the image's edge or much thinner than the page's other lines. Flattening a photo
/// brings such bands out; read as text, they add a line of garbage ("I pea a ala Pe" under a
/// sonnet, at confidence 20) that the plain reading would not have. A line of text there,
/// even a hard one, is read with some sure words or at the height of its neighbours.
///
/// It reads nothing; its report counts the lines it emptied as kept.
struct EdgeNoiseLinesPass: ReadingPass {
    let name = "edge-noise-lines"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        let noise = Self.noiseLines(state.layout, readings: state.lines, pageHeight: context.image.height)
        for index in noise {
            state.lines[index] = RecognizedLine(words: [], boundingBox: state.boxes[index], confidence: 0)
        }
        return ReadingPassOutcome(linesRead: 0, linesKept: noise.count)
    }

    /// The fewest other lines with text a page needs for its edge lines to be judged: their
    /// heights give the page's line height.
    static let leastOtherLines = 3

    /// A line thinner than this share of the median height of the page's other lines is
    /// thinner than any line of the same text (a line in smaller type, such as a footnote,
    /// is read with sure words, and is kept).
    static let thinShare = 0.75

    /// How close to the image's top or bottom, in pixels, a line's box touches it.
    static let edgeTolerance = 2

    /// The positions in `layout` of the lines to empty: of the lines with text in `readings`,
    /// the topmost and the bottommost, when that line is the only line of its block, is not
    /// read surely (`TesseractEngine.isSure`), and touches the page's edge on its side (of a
    /// page `pageHeight` pixels high, within `edgeTolerance`) or is under `thinShare` of the
    /// median height of the other lines; none when fewer than `leastOtherLines` others have
    /// text.
    static func noiseLines(_ layout: [LayoutLine], readings: [RecognizedLine?], pageHeight: Int) -> [Int] {
        let withText = layout.indices.filter { index in
            guard index < readings.count, let line = readings[index] else { return false }
            return line.text.hasVisibleText
        }
        guard withText.count > leastOtherLines,
            let top = withText.min(by: { layout[$0].box.top < layout[$1].box.top }),
            let bottom = withText.max(by: { layout[$0].box.bottom < layout[$1].box.bottom })
        else { return [] }
        return Set([top, bottom]).sorted().filter { index in
            guard let reading = readings[index], !TesseractEngine.isSure(reading) else { return false }
            let box = layout[index].box
            guard layout.filter({ $0.block == layout[index].block }).count == 1 else { return false }
            let atEdge = index == top ? box.top <= edgeTolerance : box.bottom >= pageHeight - edgeTolerance
            let heights = withText.filter { $0 != index }.map { layout[$0].box.height }.sorted()
            let median = Double(heights[heights.count / 2])
            return atEdge || Double(box.height) < thinShare * median
        }
    }
}
