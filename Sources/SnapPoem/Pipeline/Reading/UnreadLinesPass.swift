import Foundation

/// Lines the first reading did not hand out (it stopped after the first lines of a French
/// poem whose French engines could not load) are read with the configured languages.
struct UnreadLinesPass: ReadingPass {
    let name = "unread-lines"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        guard !state.timedOut, state.french.isEmpty else { return .nothing }
        let unread = state.lines.indices.filter { state.lines[$0] == nil }
        guard !unread.isEmpty else { return .nothing }
        let read = try await PageReading.split(
            unread, boxes: state.boxes, image: context.image, with: context.workers, options: context.options,
            deadline: context.deadline, name: context.name)
        state.timedOut = state.timedOut || read.timedOut
        for (index, line) in read.lines { state.lines[index] = line }
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: read.lines.count)
    }
}
