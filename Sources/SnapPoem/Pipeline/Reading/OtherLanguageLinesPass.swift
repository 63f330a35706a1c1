import Foundation

/// A line clearly in the other language than the poem's (a French line in an English poem,
/// or the reverse: `PoemLanguage.judge`) is read again with that language's model; a
/// reading with words is kept. French engines are loaded only for a French line to read: an
/// English page without one pays nothing for them.
struct OtherLanguageLinesPass: ReadingPass {
    let name = "other-language-lines"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        context.progress?(95)
        guard let language = state.report.language, !state.timedOut else { return .nothing }
        let other: PoemLanguage = language == .french ? .english : .french
        let strays = state.lines.indices.filter { index in
            guard let line = state.lines[index], !line.words.isEmpty else { return false }
            return PoemLanguage.judge(line.text) == other
        }
        guard !strays.isEmpty else { return .nothing }
        let engines =
            other == .french ? (state.french.isEmpty ? await context.engines.frenchWorkers() : state.french) : context.workers
        guard !engines.isEmpty else { return .nothing }
        let read = try await PageReading.split(
            strays, boxes: state.boxes, image: context.image, with: engines, options: context.options, deadline: context.deadline,
            name: context.name)
        state.timedOut = state.timedOut || read.timedOut
        var kept = 0
        for (index, line) in read.lines where !line.words.isEmpty {
            state.lines[index] = line
            if other == .french { state.inFrench.insert(index) } else { state.inFrench.remove(index) }
            kept += 1
        }
        state.report.lineLanguageRereads = read.lines.count
        return ReadingPassOutcome(linesRead: read.lines.count, linesKept: kept)
    }
}
