import Dispatch

/// A serial executor that runs an actor's jobs on a Dispatch queue of its own, off Swift's
/// cooperative pool: for actors whose work blocks (file writes with `fsync`, writes to a
/// full pipe), which on the pool would hold up every other task.
package final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// An executor over a new serial queue named `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
