/// Reads a batch's jobs in this process, one after another with one engine: how the command
/// line reads a single image, as a batch of one. Each image goes through `ImageReader`, as
/// in a worker process, so the outcome is the same; what differs is the isolation (a crash
/// in a C library ends this process), that recognition progress can be reported, and that
/// no content hash is taken (there is no manifest to keep it).
public struct InProcessReader: BatchReader {
    /// The scan and what to make of each poem, as a worker would be told.
    public var configuration: WorkerConfiguration
    /// Recognition progress of the job being read, 0–100, from another thread.
    public var progress: (@Sendable (ImageJob, Int) -> Void)?

    /// Creates a reader.
    public init(configuration: WorkerConfiguration, progress: (@Sendable (ImageJob, Int) -> Void)? = nil) {
        self.configuration = configuration
        self.progress = progress
    }

    /// Starts the engine, and reads each job in turn while it loads (`BatchReader.read(_:onStart:onOutcome:)`).
    /// Cancelling the task stops the image being read (its outcome is `cancelled`) and
    /// returns the jobs not started.
    ///
    /// - Throws: `BatchStartFailure` when the engine cannot start (category `.engine`, or
    ///   `.usage` for an option value the engine refused).
    public func read(
        _ jobs: [ImageJob], onStart: @escaping @Sendable (ImageJob) -> Void = { _ in },
        onOutcome: @escaping @Sendable (ImageJob, ImageOutcome) async -> Void
    ) async throws(BatchStartFailure) -> [ImageJob] {
        guard !jobs.isEmpty else { return [] }
        func startFailure(_ error: SnapPoemError) -> BatchStartFailure {
            var failure = Diagnostic(error)
            failure.category = error.category == .usage ? .usage : .engine
            return BatchStartFailure(failure)
        }
        // The models load in the background while the first image is read, decoded and
        // prepared (one image on the command line: 0.1–0.2 s of a process that takes
        // 0.5–2 s); its recognition waits for them. Under an address-space limit they load
        // first, so that the memory checks before each step see what the models took
        // (`MemoryHeadroom.isLimited`).
        let scanner: PoemScanner
        do throws(SnapPoemError) {
            if MemoryHeadroom.isLimited {
                scanner = try await PoemScanner(configuration: configuration.scan)
            } else {
                scanner = try PoemScanner(startingWith: configuration.scan)
            }
        } catch {
            throw startFailure(error)
        }
        // No manifest is kept for what this process reads, so no content hash is needed.
        let reader = ImageReader(scanner: scanner, request: configuration.export, hashesContents: false)
        let result = await read(jobs, with: reader, onStart: onStart, onOutcome: onOutcome)
        // The engines that load in the background are waited for (a refused first image ends
        // the run at once), so that the scanner is freed whole when the caller lets go of it.
        await scanner.finishLoading()
        switch result {
        case .success(let notStarted): return notStarted
        case .failure(let error): throw startFailure(error)
        }
    }

    /// Reads `jobs` in turn with `reader`: the jobs not started (after a cancellation), or why
    /// the models did not load.
    private func read(
        _ jobs: [ImageJob], with reader: ImageReader, onStart: @Sendable (ImageJob) -> Void,
        onOutcome: @Sendable (ImageJob, ImageOutcome) async -> Void
    ) async -> Result<[ImageJob], SnapPoemError> {
        for (position, job) in jobs.enumerated() {
            if Task.isCancelled { return .success(Array(jobs[position...])) }
            onStart(job)
            var report: (@Sendable (Int) -> Void)?
            if let progress { report = { percent in progress(job, percent) } }
            let outcome = await reader.read(job, progress: report)
            if position == 0 {
                // Models that did not load fail the run, not this image.
                do throws(SnapPoemError) {
                    try await reader.scanner.engineStarted()
                } catch {
                    return .failure(error)
                }
            }
            await onOutcome(job, outcome)
        }
        return .success([])
    }
}
