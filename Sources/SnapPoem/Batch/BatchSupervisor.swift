import Foundation

/// One image for the supervisor to have read.
public struct BatchJob: Sendable, Equatable {
    /// The input's position in the batch.
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

/// What became of one job.
public enum BatchJobOutcome: Sendable, Equatable {
    /// The worker answered; `printed` is what it printed meanwhile (codec messages).
    case replied(WorkerReply, printed: [String])
    /// The worker died or was stopped while reading it (`SnapPoemError.workerFailed`).
    case workerFailed(SnapPoemError, printed: [String])
    /// The batch was cancelled while the job was being read.
    case cancelled(printed: [String])
}

/// Why a supervised batch could not run at all.
public struct BatchStartFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: what failed.
    public var message: String
    /// The exit code the worker asked the batch to end with (e.g. 69 when the tessdata is
    /// missing), nil when the supervisor itself failed.
    public var code: Int32?

    /// Creates a failure.
    public init(message: String, code: Int32?) {
        self.message = message
        self.code = code
    }

    /// `message`.
    public var description: String { message }
}

/// Runs a batch in worker processes so that nothing one image does can take the batch down.
///
/// Each worker is a separate process (the `snap-poem` executable in its worker mode, see
/// `BatchWorker`) with its own Tesseract engine, reused for image after image. The
/// supervisor owns the workers' lives:
///
/// - `workers` processes at most (never more than there are jobs), each given the next job
///   as soon as it answers the previous one;
/// - a worker that crashes (a trap, an abort, a segmentation fault, the kernel's
///   out-of-memory killer) costs the image it was reading, which fails with the reason
///   (`worker crashed: signal 4 (SIGILL, illegal instruction)`); a fresh worker takes its place;
/// - a job that runs past `imageTimeLimit` (wall clock, from the moment it is sent, so it
///   covers reading, decoding, preprocessing and recognition) has its worker killed and fails
///   `over the per-image limit of 120 s`;
/// - whatever a worker prints (libpng's and libjpeg's messages) is tied to the job in flight;
/// - a worker that cannot start its engine stops the batch with its reason
///   (`BatchStartFailure`), and so do three workers in a row that die while starting;
/// - cancelling the calling task kills every worker at once: jobs in flight end
///   `cancelled`, jobs not yet sent are returned.
///
/// Outcomes are handed to `onOutcome` one at a time, in the order jobs finish.
public struct BatchSupervisor: Sendable {
    /// How to start a worker.
    public var command: WorkerCommand
    /// How many workers run at once.
    public var workers: Int
    /// The wall-clock limit for one image.
    public var imageTimeLimit: Duration
    /// How long a worker may take to start its engine.
    public var startTimeLimit: Duration = .seconds(120)

    /// Creates a supervisor; `workers` is at least 1.
    public init(command: WorkerCommand, workers: Int, imageTimeLimit: Duration) {
        self.command = command
        self.workers = max(1, workers)
        self.imageTimeLimit = imageTimeLimit
    }

    /// Has every job read.
    ///
    /// - Parameters:
    ///   - jobs: the images to read, each with its place in the batch.
    ///   - onStart: called as each job is sent to a worker.
    ///   - onOutcome: called with each job's outcome, one call at a time.
    /// - Returns: the jobs that were never sent, because the task was cancelled.
    /// - Throws: `BatchStartFailure` when workers cannot start; jobs already finished have
    ///   had their outcomes delivered.
    public func run(
        _ jobs: [BatchJob],
        onStart: @escaping @Sendable (BatchJob) -> Void = { _ in },
        onOutcome: @escaping @Sendable (BatchJob, BatchJobOutcome) async -> Void
    ) async throws(BatchStartFailure) -> [BatchJob] {
        guard !jobs.isEmpty else { return [] }
        let (events, continuation) = AsyncStream<SupervisorEvent>.makeStream()
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                continuation.yield(.tick)
            }
        }
        defer {
            ticker.cancel()
            continuation.finish()
        }
        // The loop runs in a task of its own, which the caller's cancellation does not reach
        // (a cancelled task's stream would end at once): cancellation arrives as an event, and
        // the loop goes on until every worker is stopped and every outcome delivered.
        let supervisor = self
        let loop = Task { () -> (BatchStartFailure?, [BatchJob]) in
            var run = SupervisedRun(
                supervisor: supervisor, pending: jobs[...], report: { continuation.yield(.worker($0)) }, onStart: onStart)
            run.startWorkers()
            for await event in events {
                await run.handle(event, onOutcome: onOutcome)
                if run.isFinished { break }
            }
            return (run.failure, Array(run.pending))
        }
        let (failure, notStarted) = await withTaskCancellationHandler {
            await loop.value
        } onCancel: {
            continuation.yield(.cancel)
        }
        if let failure { throw failure }
        return notStarted
    }
}

/// Everything the supervisor's loop reacts to.
private enum SupervisorEvent: Sendable {
    case worker(WorkerEvent)
    case tick
    case cancel
}

/// The state of one `BatchSupervisor.run`: touched only by its loop.
private struct SupervisedRun {
    enum Phase {
        case starting(since: ContinuousClock.Instant)
        case idle
        case busy(BatchJob, requestID: Int, deadline: ContinuousClock.Instant)
        case finishing
    }

    struct Worker {
        let process: WorkerProcess
        var phase: Phase
        /// Set when the supervisor killed it for running over the per-image limit.
        var stoppedForLimit = false
        /// Set when it was killed for sending something that is not a protocol message.
        var brokeProtocol: String?
    }

    let supervisor: BatchSupervisor
    var pending: ArraySlice<BatchJob>
    let report: @Sendable (WorkerEvent) -> Void
    let onStart: @Sendable (BatchJob) -> Void
    var workers: [Int: Worker] = [:]
    var nextWorkerID = 0
    var nextRequestID = 0
    var startFailuresInARow = 0
    var cancelled = false
    var failure: BatchStartFailure?

    init(
        supervisor: BatchSupervisor, pending: ArraySlice<BatchJob>, report: @escaping @Sendable (WorkerEvent) -> Void,
        onStart: @escaping @Sendable (BatchJob) -> Void
    ) {
        self.supervisor = supervisor
        self.pending = pending
        self.report = report
        self.onStart = onStart
    }

    /// Whether the loop is done: no worker left, and nothing more will be started.
    var isFinished: Bool {
        workers.isEmpty && (pending.isEmpty || cancelled || failure != nil)
    }

    private var isStopping: Bool { cancelled || failure != nil }

    mutating func startWorkers() {
        while !isStopping, workers.count < min(supervisor.workers, pending.count + busyCount) {
            startWorker()
        }
    }

    private var busyCount: Int {
        workers.values.filter {
            if case .busy = $0.phase { return true }
            return false
        }.count
    }

    private mutating func startWorker() {
        do throws(SnapPoemError) {
            let process = try WorkerProcess.start(id: nextWorkerID, command: supervisor.command, report: report)
            workers[nextWorkerID] = Worker(process: process, phase: .starting(since: .now))
            nextWorkerID += 1
        } catch {
            fail(BatchStartFailure(message: error.description, code: nil))
        }
    }

    private mutating func fail(_ failure: BatchStartFailure) {
        if self.failure == nil { self.failure = failure }
        for worker in workers.values { worker.process.kill() }
    }

    mutating func handle(_ event: SupervisorEvent, onOutcome: @Sendable (BatchJob, BatchJobOutcome) async -> Void) async {
        switch event {
        case .cancel:
            cancelled = true
            for worker in workers.values { worker.process.kill() }
        case .tick:
            let now = ContinuousClock.now
            for (id, worker) in workers {
                switch worker.phase {
                case .busy(_, _, let deadline) where now >= deadline && !worker.stoppedForLimit:
                    workers[id]?.stoppedForLimit = true
                    worker.process.kill()
                case .starting(let since) where now - since >= supervisor.startTimeLimit:
                    worker.process.kill()
                default: break
                }
            }
        case .worker(.message(let id, let message, let printed)):
            await handle(message, from: id, printed: printed, onOutcome: onOutcome)
        case .worker(.garbled(let id, let line)):
            // A worker that breaks the protocol cannot be trusted with more work.
            brokeProtocol(id, saying: line)
        case .worker(.exited(let id, let status, let printed)):
            guard let worker = workers.removeValue(forKey: id) else { return }
            switch worker.phase {
            case .busy(let job, _, _):
                if cancelled {
                    await onOutcome(job, .cancelled(printed: printed))
                } else {
                    let reason =
                        if worker.stoppedForLimit {
                            "over the per-image limit of \(Self.seconds(supervisor.imageTimeLimit)) s"
                        } else if let line = worker.brokeProtocol {
                            "the worker broke the batch protocol, sending '\(line)'"
                        } else {
                            ExitStatus.describe(status)
                        }
                    await onOutcome(job, .workerFailed(.workerFailed(path: job.input.path, reason: reason), printed: printed))
                }
            case .starting:
                if !isStopping {
                    startFailuresInARow += 1
                    if startFailuresInARow >= 3 {
                        let said = printed.isEmpty ? "" : ": " + printed.suffix(3).joined(separator: " / ")
                        fail(
                            BatchStartFailure(
                                message: "batch workers die while starting (\(ExitStatus.describe(status)))\(said)", code: nil))
                    }
                }
            case .idle, .finishing: break
            }
            startWorkers()
        }
    }

    private mutating func handle(
        _ message: WorkerMessage, from id: Int, printed: [String], onOutcome: @Sendable (BatchJob, BatchJobOutcome) async -> Void
    ) async {
        guard let worker = workers[id] else { return }
        switch message.type {
        case .ready:
            startFailuresInARow = 0
            workers[id]?.phase = .idle
            dispatch(to: id)
        case .fatal:
            fail(BatchStartFailure(message: message.error ?? "the batch worker cannot start", code: message.code))
        case .result:
            guard case .busy(let job, let requestID, _) = worker.phase, message.id == requestID, let reply = message.reply else {
                brokeProtocol(id, saying: "a result for request \(message.id ?? -1)")
                return
            }
            workers[id]?.phase = .idle
            await onOutcome(job, .replied(reply, printed: printed))
            dispatch(to: id)
        }
    }

    private mutating func brokeProtocol(_ id: Int, saying line: String) {
        guard workers[id] != nil else { return }
        if workers[id]?.brokeProtocol == nil { workers[id]?.brokeProtocol = line }
        workers[id]?.process.kill()
    }

    /// Gives an idle worker the next job, or lets it go.
    private mutating func dispatch(to id: Int) {
        guard let worker = workers[id], case .idle = worker.phase else { return }
        guard !isStopping, let job = pending.first else {
            workers[id]?.phase = .finishing
            worker.process.finishInput()
            return
        }
        nextRequestID += 1
        guard worker.process.send(WorkerRequest(id: nextRequestID, input: job.input, contents: job.contents)) else {
            // The worker died meanwhile: the job stays for another worker, and the exit
            // brings a replacement.
            workers[id]?.phase = .finishing
            worker.process.kill()
            return
        }
        pending.removeFirst()
        workers[id]?.phase = .busy(job, requestID: nextRequestID, deadline: .now + supervisor.imageTimeLimit)
        onStart(job)
    }

    /// `120`, or `2.5`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : String(format: "%.1f", Double(milliseconds) / 1000)
    }
}
