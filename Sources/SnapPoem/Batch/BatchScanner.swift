import Foundation
import Synchronization

/// The outcome of one input of a batch.
public struct BatchResult: Sendable {
    /// Position of the input in the batch.
    public var index: Int
    /// The input.
    public var input: BatchInput
    /// The poem, or why it could not be read.
    public var outcome: Result<ScannedPoem, SnapPoemError>

    /// Creates a result.
    public init(index: Int, input: BatchInput, outcome: Result<ScannedPoem, SnapPoemError>) {
        self.index = index
        self.input = input
        self.outcome = outcome
    }
}

/// Reads many images in parallel in this process: `workers` scanners, each with its own
/// Tesseract engine, take the next input as they become free. Parallelism is across images,
/// never inside one (Tesseract's OpenMP threads are switched off), which is what scales on a
/// small machine.
///
/// Everything runs in the calling process, so a crash in a C library while reading one
/// image ends the whole batch. The `snap-poem` command runs batches through
/// `BatchSupervisor` instead, with each image read in a worker process.
public struct BatchScanner: Sendable {
    /// What each scan does.
    public var configuration: ScanConfiguration
    /// How many images are read at once (each worker loads its own models, ≈ 40 MB).
    public var workers: Int

    /// Creates a batch scanner; `workers` is at least 1.
    public init(configuration: ScanConfiguration = ScanConfiguration(), workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.configuration = configuration
        self.workers = max(1, workers)
    }

    /// Reads every input. Results arrive as they finish (not in input order); a failed input
    /// is a result like any other, and the batch goes on. With more than one worker, the
    /// largest files are read first, so that the workers finish together (`BatchOrder`).
    ///
    /// - Throws: `SnapPoemError` only when an engine cannot start (missing tessdata or
    ///   language, out of memory): every worker's engine is started before the first image
    ///   is read, so a batch never runs with fewer workers than asked for without saying so.
    ///   Per-input problems are in the results.
    /// - Parameters:
    ///   - inputs: the images to read.
    ///   - progress: recognition progress of each image (its index, 0–100).
    ///   - onResult: called once per input with its outcome, from the worker that read it.
    public func scan(
        _ inputs: [BatchInput],
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        onResult: @escaping @Sendable (BatchResult) async -> Void
    ) async throws(SnapPoemError) {
        guard !inputs.isEmpty else { return }
        let workerCount = min(workers, inputs.count)
        // A batch keeps one engine per worker: its workers already use every core. A batch of
        // one image (the command line's single image) reads it with the engines configured.
        let configuration = {
            var configuration = self.configuration
            if workerCount > 1 { configuration.recognitionEngines = 1 }
            return configuration
        }()
        let started = await withTaskGroup(of: Result<PoemScanner, SnapPoemError>.self) { group in
            for _ in 0..<workerCount {
                group.addTask {
                    do throws(SnapPoemError) {
                        return .success(try await PoemScanner(configuration: configuration))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<PoemScanner, SnapPoemError>] = []
            for await result in group { results.append(result) }
            return results
        }
        var scanners: [PoemScanner] = []
        for result in started { scanners.append(try result.get()) }
        let next = TicketDispenser()
        let order = workerCount > 1 ? BatchOrder.largestFirst(inputs) : Array(inputs.indices)
        await withTaskGroup(of: Void.self) { group in
            for scanner in scanners {
                group.addTask {
                    while !Task.isCancelled {
                        let ticket = next.take()
                        guard ticket < order.count else { return }
                        let index = order[ticket]
                        let input = inputs[index]
                        let outcome: Result<ScannedPoem, SnapPoemError>
                        do throws(SnapPoemError) {
                            var report: (@Sendable (Int) -> Void)?
                            if let progress { report = { percent in progress(index, percent) } }
                            outcome = .success(try await scanner.scan(fileAt: input.path, progress: report))
                        } catch {
                            outcome = .failure(error)
                        }
                        await onResult(BatchResult(index: index, input: input, outcome: outcome))
                    }
                }
            }
        }
    }
}

/// Hands out 0, 1, 2, … to concurrent workers, each number once.
private final class TicketDispenser: Sendable {
    private let counter = Atomic<Int>(0)

    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
