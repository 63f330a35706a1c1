import Foundation

/// A poem judged French (`FirstReadingPass`) is read again, every line, by the French model
/// alone (`fra`), which keeps the accents the English model drops ("à" → "a", "sœur" →
/// "sceur"): with `eng+fra` the English model answers first, and confidently.
struct FrenchModelPass: ReadingPass {
    let name = "french-model"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        guard !state.timedOut, !state.french.isEmpty else { return .nothing }
        let read = try await PageReading.split(
            Array(state.boxes.indices), boxes: state.boxes, image: context.image, with: state.french, options: context.options,
            deadline: context.deadline, name: context.name)
        state.timedOut = state.timedOut || read.timedOut
        for (index, line) in read.lines {
            state.lines[index] = line
            state.inFrench.insert(index)
        }
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: read.lines.count)
    }
}
