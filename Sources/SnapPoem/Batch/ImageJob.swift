import Foundation

/// One image to read, whether it is one of a batch or the only one: read by a supervised
/// worker (`BatchSupervisor`) or in this process (`InProcessReader`), its `ImageOutcome`
/// delivered by `OutcomeDelivery`.
public struct ImageJob: Sendable, Equatable {
    /// The input's position among the run's inputs (0 for a single image).
    public var index: Int
    /// The input.
    public var input: BatchInput
    /// Its bytes, when only the supervisor can read them (standard input).
    public var contents: Data?

    /// Creates a job.
    public init(index: Int, input: BatchInput, contents: Data? = nil) {
        self.index = index
        self.input = input
        self.contents = contents
    }
}
