import Foundation

/// A line with a word read with little confidence (`PageReading.hasDoubtfulWord`: an "I a"
/// run together into "Ta") is read again from a copy enlarged by
/// `PageReading.rereadEnlargement`, by the model that read it (a line the French model read
/// is read by it again: its engines are loaded already), and the surer reading is kept. Cut
/// short by the time limit, it loses nothing: a line not read again keeps its first reading.
struct EnlargedDoubtfulLinesPass: ReadingPass {
    let name = "enlarged-doubtful-lines"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        guard !state.timedOut else { return .nothing }
        let doubtful = state.lines.indices.filter { index in state.lines[index].map(PageReading.hasDoubtfulWord) ?? false }
        guard !doubtful.isEmpty else { return .nothing }
        let frenchLine = doubtful.contains { state.inFrench.contains($0) }
        let french = frenchLine ? (state.french.isEmpty ? await context.engines.frenchWorkers() : state.french) : []
        let inFrench = state.inFrench, workers = context.workers
        let read = try await PageReading.rereadEnlarged(
            doubtful, boxes: state.boxes, image: context.image,
            engines: { inFrench.contains($0) && !french.isEmpty ? french : workers },
            options: context.options, deadline: context.deadline, name: context.name)
        var kept = 0
        for (index, line) in read.lines
        where PageReading.confidence(of: line) > (state.lines[index].map(PageReading.confidence(of:)) ?? -1) {
            state.lines[index] = line
            state.report.enlargedRereads += 1
            kept += 1
        }
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: kept)
    }
}
