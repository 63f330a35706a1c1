import Foundation

/// The page's lines as layout analysis found them: which to read, which are large type, which
/// way a page on its side is turned, and the page built from the lines read.
extension PageReading {
    /// The lines of `found` in large type: taller than 64 px, and than a quarter of the page
    /// (`pageHeight`: blank paper, a picture, or a heading in very large type) or
    /// `largeLineHeights` times the median line of text. The median is taken over the lines
    /// at least twice as wide as tall (not specks of dirt), the lower one of an even count
    /// (so that a heading over one line is found), over all lines when none is that wide.
    /// Each is read again at the end from a copy of its own (`page(of:reading:…)`):
    /// Tesseract, handed the whole page and asked for a 400 px heading over 48 px lines,
    /// reads it as nothing, and reads the same pixels cut out as the heading. Tall, narrow
    /// shapes (`isNarrow`) are not among them.
    static func largeLines(of found: [LayoutLine], pageHeight: Int) -> Set<Int> {
        let candidates = found.filter { !isNarrow($0.box) }
        let wide = candidates.filter { $0.box.width >= 2 * $0.box.height }
        let heights = (wide.isEmpty ? candidates : wide).map(\.box.height).sorted()
        guard !heights.isEmpty else { return [] }
        let median = heights[(heights.count - 1) / 2]
        let limit = max(64, min(pageHeight / 4, largeLineHeights * median))
        return Set(found.indices.filter { !isNarrow(found[$0].box) && found[$0].box.height > limit })
    }

    /// How many times the median line's height a line must exceed to count as large type.
    static let largeLineHeights = 3

    /// The line height, in pixels, a line in large type is read at, at most (a smaller one is
    /// read at its own size): about four times the x-height automatic scaling gives body text
    /// (`ScalingMode.targetXHeight`).
    static let largeLineReadingHeight = 4 * ScalingMode.targetXHeight

    /// Whether a layout line is taller than a quarter of `image` (and than 64 px): blank paper,
    /// a picture, or a heading in very large type. Left out of the page's reading, and read
    /// at the end as large type (`largeLines`).
    static func isTall(_ box: BoundingBox, in image: PoemImage) -> Bool {
        box.height > max(64, image.height / 4)
    }

    /// Whether a layout line is tall and narrow (more than twice as tall as wide, and over
    /// 100 px): a tree trunk, a rule in a drawing. A line of text is wider than tall, bar a
    /// lone "I"; such lines are not read.
    static func isNarrow(_ box: BoundingBox) -> Bool {
        box.height > 2 * box.width && box.height > 100
    }

    /// The least mean word confidence of a line taller than a quarter of the page
    /// (`isTall`) for it to be kept: the same bar as lines found by the coverage check
    /// (`CoverageCheck.leastRereadConfidence`).
    static let leastHeadingConfidence = CoverageCheck.leastRereadConfidence

    /// A report of a reading just past layout analysis: `engines` about to read `lineCount`
    /// lines, found in `layoutTime` on a copy `reducedBy` times smaller (nil: the image).
    static func report(engines: Int, lineCount: Int, layoutTime: Duration, reducedBy: Double?) -> ReadingReport {
        let milliseconds = layoutTime.components.seconds * 1000 + layoutTime.components.attoseconds / 1_000_000_000_000_000
        var report = ReadingReport(
            engines: engines, lineCount: lineCount, language: nil, frenchLines: 0, lineLanguageRereads: 0,
            layoutMilliseconds: Int(milliseconds))
        report.layoutReduction = reducedBy
        return report
    }

    /// The quarter turn, clockwise, that stands a page's vertical lines upright, judged from
    /// the end they start at: lines of verse start at the left margin and end where they end,
    /// so on a page turned on its side one end of the lines is in line and the other ragged.
    /// Starts in line at the top (the left margin turned up: the page was turned 90°
    /// clockwise) give 270; at the bottom, 90. Nil when fewer than three lines stand on end,
    /// or neither end is clearly the aligned one (justified prose, columns, right-aligned
    /// lines look alike both ways): the scanner then asks orientation detection.
    ///
    /// Measured on the pages turned on their side (layout boxes from Tesseract, median
    /// absolute deviation of the ends): the aligned end 0–1 px, the ragged end 45–82 px.
    static func turnFromLineStarts(_ boxes: [BoundingBox]) -> Int? {
        let standing = boxes.filter { $0.height > $0.width }
        guard standing.count >= 3 else { return nil }
        func spread(_ values: [Int]) -> Double {
            let sorted = values.sorted()
            let median = sorted[sorted.count / 2]
            let deviations = sorted.map { abs($0 - median) }.sorted()
            return Double(deviations[deviations.count / 2])
        }
        let tops = spread(standing.map(\.top)), bottoms = spread(standing.map(\.bottom))
        let thickness = Double(standing.map(\.width).sorted()[standing.count / 2])
        let aligned = min(tops, bottoms), ragged = max(tops, bottoms)
        // The ragged end must vary by more than half a line's thickness, and three times
        // as much as the aligned one.
        guard ragged >= thickness / 2, ragged >= 3 * aligned + 1 else { return nil }
        return tops < bottoms ? 270 : 90
    }

    /// Whether more than a fifth of the consecutive lines overlap vertically by more than a
    /// quarter of the smaller one's height: text tilted by a few degrees.
    static func linesOverlap(_ layout: [LayoutLine]) -> Bool {
        let pairs = Array(zip(layout, layout.dropFirst()))
        guard pairs.count >= 2 else { return false }
        let overlapping = pairs.filter { upper, lower in
            let overlap = min(upper.box.bottom, lower.box.bottom) - max(upper.box.top, lower.box.top)
            return Double(overlap) > 0.25 * Double(min(upper.box.height, lower.box.height))
        }
        return overlapping.count * 5 > pairs.count
    }

    /// The page built from the layout and the lines read: blocks and paragraphs as layout
    /// analysis found them, lines with words only.
    static func page(of layout: [LayoutLine], lines: [RecognizedLine?], image: PoemImage, timedOut: Bool) -> RecognizedPage {
        var blocks: [RecognizedBlock] = []
        var lastBlock = -1, lastParagraph = -1
        for (entry, read) in zip(layout, lines) {
            guard var line = read, line.words.contains(where: \.hasVisibleText) else { continue }
            line.boundingBox = entry.box
            if entry.block != lastBlock {
                blocks.append(RecognizedBlock(paragraphs: [], boundingBox: entry.blockBox))
                lastBlock = entry.block
                lastParagraph = -1
            }
            if entry.paragraph != lastParagraph {
                blocks[blocks.count - 1].paragraphs.append(RecognizedParagraph(lines: [], boundingBox: entry.box))
                lastParagraph = entry.paragraph
            }
            let p = blocks[blocks.count - 1].paragraphs.count - 1
            blocks[blocks.count - 1].paragraphs[p].lines.append(line)
            blocks[blocks.count - 1].paragraphs[p].boundingBox = blocks[blocks.count - 1].paragraphs[p].boundingBox.union(entry.box)
        }
        var page = RecognizedPage(
            text: "", meanConfidence: 0, blocks: blocks, timedOut: timedOut, imageWidth: image.width, imageHeight: image.height)
        // The mean over the words with visible text, as the turn decisions measure it.
        page.meanConfidence = page.visibleWordConfidence
        page.text = CoverageCheck.text(of: page)
        return page
    }
}
