import Foundation

/// The French model alone is less sure of damaged print (a shadowed, curved line end) than
/// the pair: a line it read with little confidence (`PageReading.doubtfulFrenchConfidence`),
/// or as nothing, is read by the configured languages too, and the surer reading is kept.
struct DoubtfulFrenchLinesPass: ReadingPass {
    let name = "doubtful-french-lines"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        guard !state.french.isEmpty, !state.timedOut else { return .nothing }
        let doubtful = state.lines.indices.filter { index in
            guard let line = state.lines[index], state.inFrench.contains(index) else { return false }
            return line.words.isEmpty || PageReading.confidence(of: line) < PageReading.doubtfulFrenchConfidence
        }
        let read = try await PageReading.split(
            doubtful, boxes: state.boxes, image: context.image, with: context.workers, options: context.options,
            deadline: context.deadline, name: context.name)
        state.timedOut = state.timedOut || read.timedOut
        var kept = 0
        for (index, line) in read.lines
        where PageReading.confidence(of: line) > (state.lines[index].map(PageReading.confidence(of:)) ?? -1) {
            state.lines[index] = line
            state.inFrench.remove(index)
            kept += 1
        }
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: kept)
    }
}
