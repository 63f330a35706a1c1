import Foundation

/// Lines in large type (`ReadingState.large`: headings, blank paper, a picture) are read last,
/// each from a copy of its own shrunk to at most `PageReading.largeLineReadingHeight` (8-bit
/// grey images only; `PageReading.rereadScaled`): Tesseract, handed the whole page and asked
/// for a 400 px heading over 48 px lines, reads it as nothing, and reads the same pixels cut
/// out as the heading. A large line that was read with the page keeps the surer of its two
/// readings (higher mean word confidence); one taller than a quarter of the page, which the
/// page's reading leaves out, is kept only when read with `PageReading.leastHeadingConfidence`
/// (a picture reads as noise). A large line that holds another line read with the page
/// (`holdsOtherLines`) is not read: its reading would repeat that line.
/// `ReadingReport.largeLines` counts the readings kept.
struct LargeTypePass: ReadingPass {
    let name = "large-type"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        let indices = state.large.sorted().filter { !Self.holdsOtherLines($0, in: state, image: context.image) }
        guard !indices.isEmpty, !state.timedOut else { return .nothing }
        let boxes = state.found.map(\.box)
        let workers = context.workers
        let read = try await PageReading.rereadScaled(
            indices, boxes: boxes, image: context.image, engines: { _ in workers },
            factor: { min(1, PageReading.largeLineReadingHeight / Double(boxes[$0].height)) }, options: context.options,
            deadline: context.deadline, name: context.name)
        state.timedOut = state.timedOut || read.timedOut
        var kept = 0
        for (index, line) in read.lines {
            let sure = PageReading.confidence(of: line)
            guard sure > 0 else { continue }
            if let position = state.reading.firstIndex(of: index), let first = state.lines[position] {
                guard sure > PageReading.confidence(of: first) else { continue }
            } else if sure < PageReading.leastHeadingConfidence {
                continue
            }
            state.largeReadings[index] = line
            state.report.largeLines += 1
            kept += 1
        }
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: kept)
    }

    /// Whether the large line `index` of `state.found`, as it would be read (its rectangle in
    /// `image`, margins included: `TesseractEngine.lineRectangle`), holds another line of the
    /// page that was read with text: one whose middle row lies within the rectangle and whose
    /// columns overlap it. Its reading would repeat that line: on a photo of the tuning part,
    /// the poem's last line came out twice, once from the margin of a box that began just
    /// below it and reached down into the desk.
    static func holdsOtherLines(_ index: Int, in state: ReadingState, image: PoemImage) -> Bool {
        guard let box = TesseractEngine.lineRectangle(state.found[index].box, in: image) else { return false }
        for (position, other) in state.reading.enumerated() where other != index && position < state.lines.count {
            guard let line = state.lines[position], line.text.hasVisibleText else { continue }
            let read = state.found[other].box
            let middle = (read.top + read.bottom) / 2
            if middle >= box.top, middle < box.bottom, read.left < box.right, read.right > box.left { return true }
        }
        return false
    }
}
