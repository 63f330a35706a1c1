import Foundation

/// The first pass: every line read with the configured languages (`eng+fra`), handed out line
/// by line to the engines (a lone engine borrows the one an idle scanner lends,
/// `EngineLoan`), the first lines first. The first lines (`ReadingState.leading`; fewer when
/// the first two or more are plainly French, `PageReading.plainlyFrenchEvidence`) decide the
/// poem's language; the engines read on past them while they are judged, and the judgement
/// stops them when the poem is French (the French model reads it all again,
/// `FrenchModelPass`) or when the page starts badly (a page upside down: the scanner then
/// asks orientation detection at once, `ReadingReport.EarlyStop.doubtfulStart`).
struct FirstReadingPass: ReadingPass {
    let name = "first-reading"

    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome {
        guard !state.boxes.isEmpty else { return .nothing }
        let judgesLanguage = context.choosesLanguage && context.engines.readsFrench
        let doubtful = state.leading < state.boxes.count ? context.doubtfulConfidence : nil
        var settlesEarly: (@Sendable ([RecognizedLine]) -> Bool)?
        if judgesLanguage { settlesEarly = { @Sendable run in PageReading.isPlainlyFrench(run, doubtfulConfidence: doubtful) } }
        let queue = LineQueue(boxes: state.boxes, leading: state.leading, settlesEarly: settlesEarly) { leadingLines in
            if let doubtful, PageReading.startsBadly(leadingLines, below: doubtful) { return false }
            return !judgesLanguage || PoemLanguage.judge(PageReading.text(of: leadingLines)) != .french
        }
        let loan = context.workers.count == 1 ? EngineLoan.current : nil
        if let loan, let lent = loan.beginReading(queue, configuration: context.engines.primary.configuration) {
            defer { loan.endReading() }
            state.report.engines = 2
            state.timedOut = try await PageReading.read(
                queue, image: context.image, with: context.workers + [lent], options: context.options, deadline: context.deadline,
                name: context.name)
        } else {
            state.timedOut = try await PageReading.read(
                queue, image: context.image, with: context.workers, options: context.options, deadline: context.deadline,
                name: context.name)
        }
        state.lines = queue.lines
        let outcome = ReadingPassOutcome(linesRead: state.lines.count { $0 != nil }, linesKept: state.lines.count { $0 != nil })
        let first = state.lines.prefix(state.leading).compactMap { $0 }
        if let doubtful, !state.timedOut, queue.stoppedAfterLeading, PageReading.startsBadly(first, below: doubtful) {
            state.report.stoppedEarly = .doubtfulStart
            return outcome
        }
        if judgesLanguage, !state.timedOut {
            let language = PoemLanguage.judge(PageReading.text(of: first)) ?? .english
            state.report.language = language
            if language == .french { state.french = await context.engines.frenchWorkers() }
            if language == .french, state.french.isEmpty { state.report.language = .english }
        }
        context.progress?(Int(100 * PageReading.leadingShare))
        return outcome
    }
}
