import Foundation
import Synchronization

/// Shared between a waiting Swift task and the thread running Tesseract: the cancel flag,
/// the wall-clock deadline and the progress sink. Tesseract's monitor calls back into it
/// through C function pointers, with this object as the `cancel_this` context.
final class RecognitionControl: Sendable {
    private let cancelRequested = Atomic<Bool>(false)
    private let lastProgress = Atomic<Int>(-1)
    /// When recognition must stop, or nil for never.
    let deadline: ContinuousClock.Instant?
    /// Receives progress 0–100, each value at most once and in increasing order.
    let progress: (@Sendable (Int) -> Void)?

    init(deadline: ContinuousClock.Instant?, progress: (@Sendable (Int) -> Void)?) {
        self.deadline = deadline
        self.progress = progress
    }

    /// Asks the running recognition to stop as soon as Tesseract next checks.
    func cancel() { cancelRequested.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelRequested.load(ordering: .relaxed) }

    /// Whether the deadline has passed.
    var isPastDeadline: Bool {
        guard let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// What Tesseract's cancel callback answers: stop when cancelled or out of time.
    var shouldStop: Bool { isCancelled || isPastDeadline }

    /// Reports progress if it moved forward.
    func report(_ percent: Int) {
        let clamped = min(max(percent, 0), 100)
        let previous = lastProgress.load(ordering: .relaxed)
        guard clamped > previous else { return }
        lastProgress.store(clamped, ordering: .relaxed)
        progress?(clamped)
    }
}
