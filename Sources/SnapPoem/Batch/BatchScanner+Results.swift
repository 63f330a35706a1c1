// A batch's results as an `AsyncSequence`, over the callback API `scan(_:progress:onResult:)`;
// the channel between the workers and the iterating task is in BatchIteration.swift.
extension BatchScanner {
    /// The order in which a batch's results are handed over.
    public enum ResultOrder: Sendable, Equatable, Hashable {
        /// Each result as soon as its image is read: fastest to first result.
        case completion
        /// The results in the order of the inputs, whatever order the workers finish in.
        case input
    }

    /// How far a batch has come, reported while an image is being recognised.
    public struct Progress: Sendable, Equatable {
        /// The position of the image being recognised in the batch (0-based).
        public var index: Int
        /// The image being recognised.
        public var input: BatchInput
        /// Recognition progress of this image, 0–100 (Tesseract reports it line by line).
        public var percent: Int
        /// How many images of the batch have been read, successfully or not.
        public var completed: Int
        /// How many images the batch has.
        public var total: Int
        /// The whole batch's progress from 0 to 1: the images read, plus the part of each
        /// image in progress that has been recognised.
        public var fractionCompleted: Double
    }

    /// One thing that happened in a batch.
    public enum Event: Sendable {
        /// An image's recognition moved on. Reports of the same image are merged while the
        /// iterating task is busy, so only the latest is seen.
        case progress(Progress)
        /// An image was read, or failed.
        case result(BatchResult)
    }

    /// The results of reading `inputs`, one `BatchResult` per input, as an `AsyncSequence`.
    ///
    /// ```swift
    /// let inputs = try BatchInput.collect(["poems/"])
    /// for try await result in BatchScanner(workers: 2).results(for: inputs, order: .input) {
    ///     print(result.input.relativePath, (try? result.outcome.get())?.text.count ?? 0)
    /// }
    /// ```
    ///
    /// The sequence drives `scan(_:progress:onResult:)` and adds three things to it:
    /// - **Order.** `.completion` (the default) hands each result over as soon as it is read;
    ///   `.input` holds early finishers back until every input before them has been handed
    ///   over.
    /// - **Back-pressure.** At most `2 × workers` results wait for the iterating task; when that
    ///   many are waiting, the workers wait too, so a slow consumer never piles results up in
    ///   memory. (In input order the result due next is always let through, so nothing waits
    ///   for itself.)
    /// - **Cancellation.** Cancelling the iterating task, or leaving the loop early, cancels the
    ///   batch: the workers stop taking inputs, the images being read stop within
    ///   `Recognizer.stopGracePeriod`, and a waiting `next()` throws `SnapPoemError.cancelled`.
    ///
    /// The batch starts when iteration starts; iterating the same sequence again reads the
    /// batch again. A failed input is a `BatchResult` like any other; the sequence itself
    /// throws only when no engine can start, or when it is cancelled.
    ///
    /// - Parameters:
    ///   - inputs: the images to read.
    ///   - order: completion order (the default) or input order.
    /// - Returns: a sequence that reads the batch when it is iterated.
    public func results(for inputs: [BatchInput], order: ResultOrder = .completion) -> Results {
        Results(scanner: self, inputs: inputs, order: order, reportsProgress: false) { event in
            if case .result(let result) = event { return result }
            return nil
        }
    }

    /// The results of reading `inputs`, with progress reports in between; otherwise the same as
    /// `results(for:order:)`.
    ///
    /// ```swift
    /// let scanner = BatchScanner(workers: 2)
    /// for try await event in scanner.events(for: try BatchInput.collect(["poems/"])) {
    ///     switch event {
    ///     case .progress(let progress): print("\(Int(progress.fractionCompleted * 100)) %")
    ///     case .result(let result): print(result.input.path)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - inputs: the images to read.
    ///   - order: completion order (the default) or input order, for the results.
    /// - Returns: a sequence that reads the batch when it is iterated.
    public func events(for inputs: [BatchInput], order: ResultOrder = .completion) -> Events {
        Events(scanner: self, inputs: inputs, order: order, reportsProgress: true) { $0 }
    }

    /// A batch's results: an `AsyncSequence` of `BatchResult`, made by `results(for:order:)`.
    public typealias Results = BatchSequence<BatchResult>

    /// A batch's results with progress reports: an `AsyncSequence` of `Event`, made by
    /// `events(for:order:)`.
    public typealias Events = BatchSequence<Event>
}

/// One reading of a batch as an `AsyncSequence`: `BatchScanner.Results` (each input's
/// `BatchResult`) and `BatchScanner.Events` (progress reports too) are this one sequence,
/// differing only in what they hand over.
public struct BatchSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// What iteration throws: `SnapPoemError` when no engine can start or the iterating
    /// task is cancelled.
    public typealias Failure = SnapPoemError

    let scanner: BatchScanner
    let inputs: [BatchInput]
    let order: BatchScanner.ResultOrder
    let reportsProgress: Bool
    /// What of each event is handed over; nil skips it.
    let pick: @Sendable (BatchScanner.Event) -> Element?

    /// Starts nothing yet: the batch is read when the iterator is first asked for an element.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            run: BatchIteration(scanner: scanner, inputs: inputs, order: order, reportsProgress: reportsProgress), pick: pick)
    }

    /// Hands over the elements of one reading of the batch.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let run: BatchIteration
        let pick: @Sendable (BatchScanner.Event) -> Element?

        /// The next element, or nil when every input's result has been handed over.
        ///
        /// - Throws: `SnapPoemError.cancelled` when the iterating task is cancelled;
        ///   the engine's error when no engine can start.
        public mutating func next() async throws(SnapPoemError) -> Element? {
            while let event = try await run.next() {
                if let element = pick(event) { return element }
            }
            return nil
        }

        /// The next element, or nil when every input's result has been handed over.
        ///
        /// - Parameter actor: the caller's actor, to which the element is handed back.
        /// - Throws: as `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SnapPoemError) -> Element? {
            try await next()
        }
    }
}
