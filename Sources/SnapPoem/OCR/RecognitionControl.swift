import Foundation
import Synchronization

/// Shared between a waiting Swift task and the thread running Tesseract: the cancel flag,
/// the wall-clock deadline and the progress sink. Tesseract's monitor calls back into it
/// through C function pointers, with this object as the `cancel_this` context.
final class RecognitionControl: Sendable {
    private let cancelRequested = Atomic<Bool>(false)
    private let deadlineReached = Atomic<Bool>(false)
    private let answered = Atomic<Bool>(false)
    private let lastProgress = Atomic<Int>(-1)
    private let startedDeadline = Locked<ContinuousClock.Instant?>(nil)
    /// How long recognition may take once it starts, or nil for no limit.
    let timeLimit: Duration?
    /// Receives progress 0–100, each value at most once and in increasing order.
    let progress: (@Sendable (Int) -> Void)?

    /// The longest time limit honoured; longer ones are treated as this (no overflow).
    static let longestTimeLimit: Duration = .seconds(365 * 24 * 3600)

    init(timeLimit: Duration?, progress: (@Sendable (Int) -> Void)?) {
        self.timeLimit = timeLimit.map { min(max($0, .zero), Self.longestTimeLimit) }
        self.progress = progress
    }

    /// Starts the clock: called when the engine takes the image, not when it was queued, so
    /// that an image waiting behind another is not charged for the wait.
    func start() {
        guard let timeLimit else { return }
        startedDeadline.withLock { $0 = ContinuousClock.now.advanced(by: timeLimit) }
    }

    /// When recognition must stop, once started; nil for never.
    var deadline: ContinuousClock.Instant? { startedDeadline.withLock { $0 } }

    /// Asks the running recognition to stop as soon as Tesseract next checks.
    func cancel() { cancelRequested.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelRequested.load(ordering: .relaxed) }

    /// Whether the deadline stopped (or will stop) recognition: set the first time a check
    /// finds it passed, so a page that finished just after the deadline, without being asked
    /// to stop, is not reported as cut short.
    var stoppedByDeadline: Bool { deadlineReached.load(ordering: .relaxed) }

    /// What Tesseract's cancel callback answers: stop when cancelled or out of time.
    var shouldStop: Bool {
        if isCancelled { return true }
        guard let deadline, ContinuousClock.now >= deadline else { return false }
        deadlineReached.store(true, ordering: .relaxed)
        return true
    }

    /// Marks the call as answered (result, time limit or cancellation): progress reported
    /// after that, by an engine finishing in the background, is dropped.
    func markAnswered() { answered.store(true, ordering: .relaxed) }

    /// Reports progress if it moved forward and the call is still waiting.
    func report(_ percent: Int) {
        guard !answered.load(ordering: .relaxed) else { return }
        let clamped = min(max(percent, 0), 100)
        let previous = lastProgress.load(ordering: .relaxed)
        guard clamped > previous else { return }
        lastProgress.store(clamped, ordering: .relaxed)
        progress?(clamped)
    }
}
