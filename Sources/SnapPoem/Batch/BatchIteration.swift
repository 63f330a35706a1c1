import Synchronization

/// One reading of a batch for `BatchScanner.Results` and `BatchScanner.Events`: starts the
/// batch on the first `next()`, and cancels it when the last iterator holding it goes away, so
/// that leaving a `for try await` loop early stops the workers.
final class BatchIteration: Sendable {
    let channel: BatchChannel
    private let start: Locked<(@Sendable () -> Void)?>

    init(scanner: BatchScanner, inputs: [BatchInput], order: BatchScanner.ResultOrder, reportsProgress: Bool) {
        let channel = BatchChannel(inputs: inputs, order: order, capacity: 2 * scanner.workers)
        self.channel = channel
        start = Locked({
            let producer = Task {
                do throws(SnapPoemError) {
                    var progress: (@Sendable (Int, Int) -> Void)?
                    if reportsProgress { progress = { index, percent in channel.report(index: index, percent: percent) } }
                    try await scanner.scan(inputs, progress: progress) { result in await channel.send(result) }
                    channel.finish(.success(()))
                } catch {
                    channel.finish(.failure(error))
                }
            }
            channel.attach(producer)
        })
    }

    deinit {
        channel.cancel()
    }

    /// The next event; starts the batch the first time.
    func next() async throws(SnapPoemError) -> BatchScanner.Event? {
        if let start = start.withLock({ $0.take() }) { start() }
        return try await channel.next()
    }
}

/// Carries a batch's results and progress from the workers to the one task iterating over
/// them, in completion or input order, with back-pressure: a worker handing over a result
/// waits while `capacity` results are already waiting to be taken (except, in input order,
/// for the result due next, so the batch can always move on).
final class BatchChannel: Sendable {
    private struct State {
        let inputs: [BatchInput]
        let order: BatchScanner.ResultOrder
        let capacity: Int
        /// Results accepted and not yet taken, by input index.
        var buffered: [Int: BatchResult] = [:]
        /// Indices of `buffered`, in the order they were accepted.
        var arrivals: [Int] = []
        /// In input order, the index to hand over next.
        var nextIndex = 0
        /// Workers waiting for their result to be accepted.
        var waitingWorkers: [(result: BatchResult, continuation: CheckedContinuation<Void, Never>)] = []
        /// The latest percentage of each image being recognised.
        var percents: [Int: Int] = [:]
        /// Images whose latest percentage has not been reported yet, oldest first.
        var unreported: [Int] = []
        /// Results the workers have handed over.
        var completed = 0
        /// Which inputs' results the workers have handed over.
        var read: [Bool]
        /// The consumer, waiting for something to happen.
        var consumer: CheckedContinuation<Void, Never>?
        /// How the batch ended, once it has.
        var end: Result<Void, SnapPoemError>?
        var cancelled = false
        /// Cancellation or the engine's error was thrown; later calls return nil.
        var threw = false
        var producer: Task<Void, Never>?

        func accepts(_ result: BatchResult) -> Bool {
            buffered.count < capacity || (order == .input && result.index == nextIndex)
        }

        mutating func accept(_ result: BatchResult) {
            buffered[result.index] = result
            arrivals.append(result.index)
        }

        /// Takes the result due next, if it is there, and lets waiting workers in.
        mutating func takeResult() -> (BatchResult, [CheckedContinuation<Void, Never>])? {
            let index: Int
            switch order {
            case .completion:
                guard let first = arrivals.first else { return nil }
                index = first
            case .input:
                if buffered[nextIndex] == nil, end != nil, let earliest = buffered.keys.min() {
                    nextIndex = earliest  // an input never came back; hand over the rest
                }
                guard buffered[nextIndex] != nil else { return nil }
                index = nextIndex
                nextIndex += 1
            }
            guard let result = buffered.removeValue(forKey: index) else { return nil }
            arrivals.removeAll { $0 == index }
            var admitted: [CheckedContinuation<Void, Never>] = []
            var stillWaiting: [(result: BatchResult, continuation: CheckedContinuation<Void, Never>)] = []
            for worker in waitingWorkers {
                if accepts(worker.result) {
                    accept(worker.result)
                    admitted.append(worker.continuation)
                } else {
                    stillWaiting.append(worker)
                }
            }
            waitingWorkers = stillWaiting
            return (result, admitted)
        }

        /// The oldest progress not yet reported.
        mutating func takeProgress() -> BatchScanner.Progress? {
            while !unreported.isEmpty {
                let index = unreported.removeFirst()
                guard let percent = percents[index] else { continue }
                let inFlight = percents.values.reduce(0) { $0 + Double($1) / 100 }
                let total = inputs.count
                return BatchScanner.Progress(
                    index: index, input: inputs[index], percent: percent, completed: completed, total: total,
                    fractionCompleted: total == 0 ? 1 : min(1, (Double(completed) + inFlight) / Double(total)))
            }
            return nil
        }
    }

    /// What the consumer does next.
    private enum Step {
        case deliver(BatchScanner.Event, resuming: [CheckedContinuation<Void, Never>])
        case finish(Result<Void, SnapPoemError>)
        case wait
    }

    private let state: Locked<State>

    init(inputs: [BatchInput], order: BatchScanner.ResultOrder, capacity: Int) {
        state = Locked(
            State(inputs: inputs, order: order, capacity: max(1, capacity), read: Array(repeating: false, count: inputs.count)))
    }

    /// Whether the iteration was cancelled, and with it the task running the batch.
    var isCancelled: Bool {
        state.withLock { $0.cancelled && $0.producer?.isCancelled != false }
    }

    /// Keeps the task that runs the batch, so that cancelling the iteration cancels it.
    func attach(_ producer: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.producer = producer
            return state.cancelled
        }
        if cancelled { producer.cancel() }
    }

    // MARK: Workers' side

    /// Hands over one result; returns once it is accepted (or the iteration was cancelled).
    func send(_ result: BatchResult) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: [CheckedContinuation<Void, Never>] = state.withLock { state in
                guard !state.cancelled else { return [continuation] }
                state.completed += 1
                if state.read.indices.contains(result.index) { state.read[result.index] = true }
                state.percents[result.index] = nil
                let consumer = state.consumer.take()
                if state.accepts(result) {
                    state.accept(result)
                    return [continuation] + (consumer.map { [$0] } ?? [])
                }
                state.waitingWorkers.append((result, continuation))
                return consumer.map { [$0] } ?? []
            }
            for waiting in resume { waiting.resume() }
        }
    }

    /// Records an image's recognition progress; called on Tesseract's thread, never blocks.
    func report(index: Int, percent: Int) {
        let consumer: CheckedContinuation<Void, Never>? = state.withLock { state in
            // Late reports are dropped: an engine stopped by a time limit may still report
            // from the background after its result was handed over.
            guard !state.cancelled, state.end == nil, state.inputs.indices.contains(index), !state.read[index] else {
                return nil
            }
            state.percents[index] = percent
            if !state.unreported.contains(index) { state.unreported.append(index) }
            return state.consumer.take()
        }
        consumer?.resume()
    }

    /// The batch is over: every result was handed over, or it failed to start.
    func finish(_ end: Result<Void, SnapPoemError>) {
        let consumer = state.withLock { state in
            state.end = end
            state.percents.removeAll()
            return state.consumer.take()
        }
        consumer?.resume()
    }

    /// Stops the batch: the workers stop, waiting ones are let go, results are dropped.
    func cancel() {
        let (resume, producer) = state.withLock { state in
            state.cancelled = true
            var resume = state.waitingWorkers.map(\.continuation)
            state.waitingWorkers.removeAll()
            state.buffered.removeAll()
            state.arrivals.removeAll()
            if let consumer = state.consumer.take() { resume.append(consumer) }
            return (resume, state.producer)
        }
        producer?.cancel()
        for waiting in resume { waiting.resume() }
    }

    // MARK: Consumer's side

    /// The next event, waiting for one if need be.
    func next() async throws(SnapPoemError) -> BatchScanner.Event? {
        while true {
            if Task.isCancelled { cancel() }
            switch state.withLock({ Self.step(&$0) }) {
            case .deliver(let event, let resuming):
                for worker in resuming { worker.resume() }
                return event
            case .finish(.success):
                return nil
            case .finish(.failure(let error)):
                throw error
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ready = state.withLock { state in
                            if case .wait = Self.peek(state) {
                                state.consumer = continuation
                                return false
                            }
                            return true
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    self.cancel()
                }
            }
        }
    }

    /// Decides the consumer's next step, taking what it hands over.
    private static func step(_ state: inout State) -> Step {
        if state.threw { return .finish(.success(())) }
        if state.cancelled {
            state.threw = true
            let count = state.inputs.count
            return .finish(.failure(.cancelled(path: "batch of \(count) image\(count == 1 ? "" : "s")")))
        }
        if let (result, admitted) = state.takeResult() {
            return .deliver(.result(result), resuming: admitted)
        }
        if let progress = state.takeProgress() {
            return .deliver(.progress(progress), resuming: [])
        }
        if let end = state.end {
            if case .failure = end { state.threw = true }
            return .finish(end)
        }
        return .wait
    }

    /// Whether the consumer would have to wait, without taking anything.
    private static func peek(_ state: State) -> Step {
        var copy = state
        return step(&copy)
    }
}
