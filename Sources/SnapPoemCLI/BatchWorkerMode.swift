import Foundation
import SnapPoem
import Synchronization

/// `snap-poem --internal-batch-worker ARGUMENTS…`: the hidden worker mode that a batch's
/// supervisor starts (see `BatchSupervisor`, `BatchWorker`). The arguments are the batch's
/// own command line, so the worker scans and renders exactly as a single run would; each
/// request is one image, and the reply carries the rendered bytes and every line the
/// single run would have printed for it.
enum BatchWorkerMode {
    /// The first argument that selects the worker mode. Not in `--help`: it is meaningless
    /// without a supervisor on descriptor 3.
    static let argument = "--internal-batch-worker"
    /// The next argument: poems go on one stream framed for several (JSON Lines)…
    static let several = "several"
    /// … or each is a document of its own.
    static let one = "one"

    /// Runs the worker until its supervisor closes the channel; returns the exit code.
    /// `arguments` are the shape (`several` or `one`) and then the batch's command line.
    static func run(_ arguments: [String]) async -> Int32 {
        let options: CommandOptions
        let several = arguments.first == Self.several
        do {
            options = try CommandOptions(try ParsedArguments.parse(Array(arguments.dropFirst())))
        } catch {
            return await BatchWorker.serve(memoryLimit: nil) { () throws(BatchWorker.StartFailure) -> BatchWorker.Handler in
                throw BatchWorker.StartFailure(message: error.message, code: ExitCode.usage.rawValue)
            }
        }
        return await BatchWorker.serve(memoryLimit: options.batch.workerMemory) {
            () throws(BatchWorker.StartFailure) -> BatchWorker.Handler in
            let scanner: PoemScanner
            do throws(SnapPoemError) {
                // A batch keeps one engine per worker process: the workers use every core.
                var configuration = options.scan
                configuration.recognitionEngines = 1
                scanner = try await PoemScanner(configuration: configuration)
            } catch {
                let code = error.isUsageProblem ? ExitCode.usage : ExitCode.ocrUnavailable
                throw BatchWorker.StartFailure(message: error.description, code: code.rawValue)
            }
            return { request in await read(request, with: scanner, options: options, several: several) }
        }
    }

    /// Reads, scans and renders one image, as `BatchRun.finish` would for a single run.
    static func read(_ request: WorkerRequest, with scanner: PoemScanner, options: CommandOptions, several: Bool) async -> WorkerReply {
        let clock = ContinuousClock()
        let start = clock.now
        let input = request.input
        var contentHash: String?
        let poem: ScannedPoem
        do throws(SnapPoemError) {
            let bytes: Data
            if let contents = request.contents {
                bytes = contents
            } else {
                bytes = try input.readContents()
            }
            contentHash = ContentHash.of(bytes)
            let (image, facts) = try ImageDecoder.decode(data: bytes, name: input.path, limits: options.scan.imageLimits)
            let decodeTime = clock.now - start
            var scanned = try await scanner.scan(image, facts: facts, name: input.path)
            scanned.timings.decode = decodeTime
            poem = scanned
        } catch {
            let failure: ManifestEntry.Failure = .input
            let cancelled = error == .cancelled(path: input.path)
            return WorkerReply(
                status: cancelled ? .cancelled : .failed, error: error.description, failure: cancelled ? nil : failure,
                exitCode: (cancelled ? ExitCode.interrupted : ExitCode.inputFailed).rawValue,
                diagnostics: ["snap-poem: error: \(error.description)\n"], contentHash: contentHash,
                timings: timings(nil, total: clock.now - start))
        }
        let printed = Mutex<[String]>([])
        let console = Console(
            writeOutput: { _ in }, writeError: { text in printed.withLock { $0.append(text) } }, errorIsTerminal: false)
        let run = BatchRun(options: options, console: console)
        let (code, data) = run.finish(BatchResult(index: 0, input: input, outcome: .success(poem)), several: several)
        let diagnostics = printed.withLock { $0 }
        let warningPrefix = "snap-poem: warning: "
        let warnings = diagnostics.filter { $0.hasPrefix(warningPrefix) }.map {
            String($0.dropFirst(warningPrefix.count)).trimmingCharacters(in: .newlines)
        }
        var reply = WorkerReply(
            status: .ok, exitCode: code.rawValue, output: data, diagnostics: diagnostics, warnings: warnings,
            contentHash: contentHash, meanConfidence: poem.page.meanConfidence, hasText: poem.page.hasText,
            coverage: poem.coverage.map(ManifestEntry.Coverage.init), timings: timings(poem.timings, total: clock.now - start))
        switch code {
        case .success: break
        case .timedOut: reply.status = .timedOut
        default:
            reply.status = .failed
            reply.failure = code == .outputFailed ? .output : .input
            let errorPrefix = "snap-poem: error: "
            reply.error =
                diagnostics.last { $0.hasPrefix(errorPrefix) }.map {
                    String($0.dropFirst(errorPrefix.count)).trimmingCharacters(in: .newlines)
                } ?? "failed (exit \(code.rawValue))"
        }
        return reply
    }

    private static func timings(_ stages: StageTimings?, total: Duration) -> ManifestEntry.Timings {
        func milliseconds(_ duration: Duration) -> Int {
            Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        }
        return ManifestEntry.Timings(
            decodeMs: milliseconds(stages?.decode ?? .zero), preprocessMs: milliseconds(stages?.preprocess ?? .zero),
            recognizeMs: milliseconds(stages?.recognize ?? .zero), personalizeMs: milliseconds(stages?.personalize ?? .zero),
            totalMs: milliseconds(total))
    }
}
