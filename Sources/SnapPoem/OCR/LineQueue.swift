import Synchronization

/// The lines of one page handed out one at a time to the engines that read it
/// (`PageReading`), so that neither waits for the other: the leading lines first, in order,
/// to whichever engine is free; then the rest, the first engine taking them from the top
/// and the second from the bottom until they meet.
///
/// Once the last leading line is read, `decide` looks at the leading lines and says whether
/// the reading goes on; if it does not (the poem is French, or the page starts badly), no
/// more lines are handed out and the engines stop after the line they are reading. Lines
/// past the leading ones that were read before the decision are kept only when it says go
/// on: the second engine reads them while the first finishes the leading lines, instead of
/// waiting. Before that, `settlesEarly` may stop the reading on the first leading lines
/// alone, each time a longer run of them from the first is read (two lines at least): a
/// poem that is plainly French by its second line need not have its third read by a model
/// whose reading is thrown away.
final class LineQueue: Sendable {
    /// Which end of the lines after the leading ones an engine takes from.
    enum End: Sendable { case top, bottom }

    private struct State {
        var nextLeading = 0
        var top: Int
        var bottom: Int
        var lines: [RecognizedLine?]
        var leadingRead = 0
        /// How many leading lines from the first have been read without a gap.
        var readRun = 0
        /// The longest run `settlesEarly` has been asked about.
        var runAsked = 0
        var stopped = false
        var decided = false
        var closed: Set<End> = []
    }

    /// The page's line boxes, in reading order.
    let boxes: [BoundingBox]
    /// How many of them lead (read first, then judged).
    let leading: Int
    private let decide: @Sendable ([RecognizedLine]) -> Bool
    private let settlesEarly: (@Sendable ([RecognizedLine]) -> Bool)?
    private let state: Locked<State>

    /// The fewest leading lines `settlesEarly` is asked about.
    static let leastEarlyRun = 2

    /// A queue over `boxes`, whose first `leading` are judged by `decide` once read
    /// (true: read on); `settlesEarly`, when given, is asked about each longer run of
    /// leading lines read from the first (at least `leastEarlyRun`, fewer than `leading`),
    /// and true from it stops the reading as `decide`'s false does.
    init(
        boxes: [BoundingBox], leading: Int, settlesEarly: (@Sendable ([RecognizedLine]) -> Bool)? = nil,
        decide: @escaping @Sendable ([RecognizedLine]) -> Bool
    ) {
        self.boxes = boxes
        self.leading = min(max(0, leading), boxes.count)
        self.decide = decide
        self.settlesEarly = settlesEarly
        state = Locked(State(top: self.leading, bottom: boxes.count - 1, lines: Array(repeating: nil, count: boxes.count)))
        if self.leading == 0 { finishLeading() }
    }

    /// The next line for an engine reading from `end`: its position and box; nil when none
    /// is left, the decision stopped the reading, or `end` was closed.
    func take(from end: End) -> (position: Int, box: BoundingBox)? {
        let position = state.withLock { state -> Int? in
            guard !state.stopped, !state.closed.contains(end) else { return nil }
            if state.nextLeading < leading {
                state.nextLeading += 1
                return state.nextLeading - 1
            }
            guard state.top <= state.bottom else { return nil }
            switch end {
            case .top:
                state.top += 1
                return state.top - 1
            case .bottom:
                state.bottom -= 1
                return state.bottom + 1
            }
        }
        return position.map { ($0, boxes[$0]) }
    }

    /// Hands no more lines to the engine reading from `end` (an engine taken back,
    /// `EngineLoan`); the engine at the other end reads the rest.
    func close(_ end: End) {
        state.withLock { _ = $0.closed.insert(end) }
    }

    /// Records the reading of the line at `position`.
    func deliver(_ line: RecognizedLine, at position: Int) {
        let (leadingDone, run) = state.withLock { state -> (Bool, [RecognizedLine]?) in
            // A line past the leading ones that an engine finishes after the decision stopped
            // the reading is dropped with the others.
            if state.stopped, position >= leading { return (false, nil) }
            state.lines[position] = line
            guard position < leading else { return (false, nil) }
            state.leadingRead += 1
            if state.leadingRead == leading { return (!state.decided, nil) }
            while state.readRun < leading, state.lines[state.readRun] != nil { state.readRun += 1 }
            guard settlesEarly != nil, !state.decided, state.readRun >= Self.leastEarlyRun, state.readRun > state.runAsked else {
                return (false, nil)
            }
            state.runAsked = state.readRun
            return (false, state.lines.prefix(state.readRun).compactMap { $0 })
        }
        if leadingDone { finishLeading() }
        if let run, let settlesEarly, settlesEarly(run) { settle(goingOn: false) }
    }

    private func finishLeading() {
        let leadingLines = state.withLock { state in state.lines.prefix(leading).compactMap { $0 } }
        settle(goingOn: decide(leadingLines))
    }

    /// Makes the decision, once: the first one made stands.
    private func settle(goingOn: Bool) {
        state.withLock { state in
            guard !state.decided else { return }
            state.decided = true
            if !goingOn {
                state.stopped = true
                // What was read past the leading lines before the decision is dropped.
                for index in leading..<state.lines.count { state.lines[index] = nil }
            }
        }
    }

    /// The lines read so far, by position (nil where none was).
    var lines: [RecognizedLine?] { state.withLock { $0.lines } }

    /// Whether the decision stopped the reading after the leading lines.
    var stoppedAfterLeading: Bool { state.withLock { $0.stopped } }

    /// Whether the leading lines were all read and judged.
    var decided: Bool { state.withLock { $0.decided } }
}
