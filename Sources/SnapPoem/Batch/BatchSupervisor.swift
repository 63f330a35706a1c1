import Foundation

/// Why a batch could not run at all: its workers cannot start.
public struct BatchStartFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, as the worker (or the supervisor) said it: category `.engine` (no
    /// tessdata, a language without data, workers that die while starting), `.usage` (an
    /// option value the engine refused).
    public var diagnostic: Diagnostic

    /// Creates a failure.
    public init(_ diagnostic: Diagnostic) {
        self.diagnostic = diagnostic
    }

    /// The diagnostic's text.
    public var description: String { diagnostic.text }
}

/// Something that reads a batch's jobs and hands each one's outcome over: worker processes
/// (`BatchSupervisor`) or this process (`InProcessReader`).
public protocol BatchReader: Sendable {
    /// Has every job read.
    ///
    /// - Parameters:
    ///   - jobs: the images to read, each with its place in the batch.
    ///   - onStart: called as each job starts being read.
    ///   - onOutcome: called with each job's outcome, one call at a time.
    /// - Returns: the jobs never finished because the task was cancelled (no outcome was
    ///   handed over for them).
    /// - Throws: `BatchStartFailure` when nothing can read them; jobs already finished have
    ///   had their outcomes handed over, the others have none.
    func read(
        _ jobs: [ImageJob], onStart: @escaping @Sendable (ImageJob) -> Void,
        onOutcome: @escaping @Sendable (ImageJob, ImageOutcome) async -> Void
    ) async throws(BatchStartFailure) -> [ImageJob]
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
///   `over the per-image limit of 120 s`; for a multi-page TIFF the limit starts again as each
///   page begins (the worker says `page`), so it bounds each page rather than the file;
/// - whatever a worker prints (libpng's and libjpeg's messages) is tied to the job in flight;
/// - a worker that breaks the protocol (a line that is no message, a line over the limit, a
///   `ready` while it reads an image, an answer to another request) is killed, and the
///   image it was reading fails with what it sent;
/// - a worker that cannot start its engine stops the batch with its reason
///   (`BatchStartFailure`), and so do three workers in a row that die while starting;
/// - cancelling the calling task kills every worker at once: jobs in flight end
///   `cancelled`, jobs not yet sent are returned.
///
/// Every worker gets `configuration` as its first message. Outcomes are handed to
/// `onOutcome` one at a time, in the order jobs finish.
public struct BatchSupervisor: BatchReader {
    /// How to start a worker.
    public var command: WorkerCommand
    /// What every worker is told first: the scan and what to make of each poem.
    public var configuration: WorkerConfiguration
    /// How many workers run at once.
    public var workers: Int
    /// The wall-clock limit for one image.
    public var imageTimeLimit: Duration
    /// How long a worker may take to start its engine.
    public var startTimeLimit: Duration = .seconds(120)

    /// Creates a supervisor; `workers` is at least 1.
    public init(command: WorkerCommand, configuration: WorkerConfiguration, workers: Int, imageTimeLimit: Duration) {
        self.command = command
        self.configuration = configuration
        self.workers = max(1, workers)
        self.imageTimeLimit = imageTimeLimit
    }

    /// Has every job read by the workers (`BatchReader.read(_:onStart:onOutcome:)`);
    /// `onStart` is called as each job is sent to a worker.
    public func read(
        _ jobs: [ImageJob],
        onStart: @escaping @Sendable (ImageJob) -> Void = { _ in },
        onOutcome: @escaping @Sendable (ImageJob, ImageOutcome) async -> Void
    ) async throws(BatchStartFailure) -> [ImageJob] {
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
        // Workers that run side by side keep one engine each: together they already use
        // every core. A lone worker reads each image with the engines configured.
        var workerConfiguration = configuration
        if min(workers, jobs.count) > 1 { workerConfiguration.scan.recognitionEngines = 1 }
        let configurationLine = WorkerLine.encode(workerConfiguration)
        // Side by side, the largest files go first, so that the workers finish together.
        let ordered =
            min(workers, jobs.count) > 1
            ? BatchOrder.largestFirst(jobs.map(\.input), contents: { jobs[$0].contents }).map { jobs[$0] } : jobs
        let loop = Task { () -> (BatchStartFailure?, [ImageJob]) in
            var run = SupervisedRun(
                supervisor: supervisor, configurationLine: configurationLine, pending: ordered[...],
                report: { continuation.yield(.worker($0)) }, onStart: onStart)
            run.startWorkers()
            for await event in events {
                await run.handle(event, onOutcome: onOutcome)
                if run.isFinished { break }
            }
            return (run.failure, run.pending.sorted { $0.index < $1.index })
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
        case busy(ImageJob, requestID: Int, deadline: ContinuousClock.Instant)
        case finishing
    }

    struct Worker {
        let process: WorkerProcess
        var phase: Phase
        /// Set when the supervisor killed it for running over the per-image limit.
        var stoppedForLimit = false
        /// Set when it was killed for breaking the protocol: what it sent.
        var brokeProtocol: String?
    }

    let supervisor: BatchSupervisor
    /// The first message every worker gets.
    let configurationLine: Data
    var pending: ArraySlice<ImageJob>
    let report: @Sendable (WorkerEvent) -> Void
    let onStart: @Sendable (ImageJob) -> Void
    var workers: [Int: Worker] = [:]
    var nextWorkerID = 0
    var nextRequestID = 0
    var startFailuresInARow = 0
    var cancelled = false
    var failure: BatchStartFailure?

    init(
        supervisor: BatchSupervisor, configurationLine: Data, pending: ArraySlice<ImageJob>,
        report: @escaping @Sendable (WorkerEvent) -> Void, onStart: @escaping @Sendable (ImageJob) -> Void
    ) {
        self.supervisor = supervisor
        self.configurationLine = configurationLine
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
            // A worker that is gone already does not read it; its exit brings what follows.
            _ = process.send(line: configurationLine)
        } catch {
            fail(BatchStartFailure(Diagnostic(.error, error.description, category: .engine)))
        }
    }

    private mutating func fail(_ failure: BatchStartFailure) {
        if self.failure == nil { self.failure = failure }
        for worker in workers.values { worker.process.kill() }
    }

    mutating func handle(_ event: SupervisorEvent, onOutcome: @Sendable (ImageJob, ImageOutcome) async -> Void) async {
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
            brokeProtocol(id, saying: line.map { "'\($0)'" } ?? "a line over the limit of \(WorkerLine.maximumBytes) bytes")
        case .worker(.exited(let id, let status, let printed)):
            guard let worker = workers.removeValue(forKey: id) else { return }
            switch worker.phase {
            case .busy(let job, _, _):
                if cancelled {
                    await onOutcome(job, ImageOutcome(status: .cancelled, printed: printed))
                } else if failure != nil {
                    // Stopped with the batch: not read, and no outcome; the caller counts it.
                    break
                } else {
                    let memoryHint =
                        worker.stoppedForLimit || worker.brokeProtocol != nil
                        ? "" : ExitStatus.memoryHint(status: status, printed: printed, limit: supervisor.configuration.memoryLimit)
                    let reason =
                        if worker.stoppedForLimit {
                            "over the per-image limit of \(supervisor.imageTimeLimit.secondsText) s"
                        } else if let sent = worker.brokeProtocol {
                            "the worker broke the batch protocol, sending \(sent)"
                        } else {
                            ExitStatus.describe(status) + memoryHint
                        }
                    var outcome = ImageOutcome.failed(.workerFailed(path: job.input.path, reason: reason), printed: printed)
                    if !memoryHint.isEmpty {
                        for index in outcome.diagnostics.indices { outcome.diagnostics[index].setting = .workerMemory }
                    }
                    await onOutcome(job, outcome)
                }
            case .starting:
                if !isStopping {
                    startFailuresInARow += 1
                    if startFailuresInARow >= 3 {
                        let said = printed.isEmpty ? "" : ": " + printed.suffix(3).joined(separator: " / ")
                        fail(
                            BatchStartFailure(
                                Diagnostic(
                                    .error, "batch workers die while starting (\(ExitStatus.describe(status)))\(said)",
                                    category: .engine)))
                    }
                }
            case .idle, .finishing: break
            }
            startWorkers()
        }
    }

    private mutating func handle(
        _ message: WorkerMessage, from id: Int, printed: [String], onOutcome: @Sendable (ImageJob, ImageOutcome) async -> Void
    ) async {
        guard let worker = workers[id] else { return }
        // Each message is allowed in one phase only; anything else breaks the protocol, and a
        // worker that breaks it cannot be trusted with its image or with more work.
        switch (message.type, worker.phase) {
        case (.ready, .starting):
            startFailuresInARow = 0
            workers[id]?.phase = .idle
            dispatch(to: id)
        case (.fatal, .starting):
            fail(
                BatchStartFailure(
                    message.failure ?? Diagnostic(.error, "the batch worker cannot start", category: .engine)))
        case (.result, .busy(let job, let requestID, _)):
            guard message.id == requestID, var outcome = message.outcome else {
                brokeProtocol(id, saying: "a result for request \(message.id ?? -1) while it was reading request \(requestID)")
                return
            }
            workers[id]?.phase = .idle
            outcome.printed = printed + outcome.printed
            await onOutcome(job, outcome)
            dispatch(to: id)
        case (.page, .busy(let job, let requestID, _)):
            guard message.id == requestID, let page = message.page, page >= 2 else {
                brokeProtocol(id, saying: "a page for request \(message.id ?? -1) while it was reading request \(requestID)")
                return
            }
            workers[id]?.phase = .busy(job, requestID: requestID, deadline: .now + supervisor.imageTimeLimit)
        case (.ready, .busy):
            brokeProtocol(id, saying: "'ready' while it was reading the image")
        case (.ready, _), (.result, _), (.page, _):
            brokeProtocol(id, saying: "'\(message.type.rawValue)' when it had no image to read")
        case (.fatal, _):
            brokeProtocol(id, saying: "'fatal' after it had started")
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
        guard worker.process.send(line: WorkerLine.encode(WorkerRequest(id: nextRequestID, job: job))) else {
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
}
