import Synchronization

/// A flag raised once, from any thread, and read from another: how `offloadStoppable(qos:_:)`
/// tells work on a Dispatch thread that its task was cancelled.
package final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// A flag not yet raised.
    package init() {}

    /// Raises the flag.
    package func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether `raise()` was called.
    package var isRaised: Bool { raised.load(ordering: .relaxed) }
}
