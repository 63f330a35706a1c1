import Foundation
import SnapPoem

/// Takes each image's outcome from the supervisor and does what the command asks with it:
///
/// - with `--output-dir`, at once, as each image finishes: the output file is written
///   (atomically), the manifest line appended, the image's messages printed;
/// - otherwise in input order, so that standard output does not depend on `--jobs`: the
///   messages, then the poem, framed for a stream (`==> name <==` before text, a rule
///   between Markdown documents, JSON Lines), or collected for `--copy` and
///   `--output FILE.jsonl`.
///
/// Delivering blocks (files written and flushed with `fsync`, manifest lines appended,
/// standard output full), so the actor runs on a serial Dispatch queue of its own rather
/// than on Swift's cooperative pool.
actor SupervisedDelivery {
    private let executor = QueueExecutor(label: "snap-poem.supervised-delivery")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// What the delivery counted.
    struct Result: Sendable {
        var outcomes: [ExitCode] = []
        /// Images read, ok or cut short.
        var written = 0
        /// Of `written`, cut short by `--timeout`.
        var partial = 0
        var failed = 0
        var cancelled = 0
        /// Images that reached an outcome.
        var finished = 0
        /// `--copy` and `--output FILE.jsonl`: everything, in input order.
        var collected = Data()
        /// Whether anything was delivered.
        var delivered = false
    }

    private struct Ready {
        var input: BatchInput
        var lines: [String]
        var data: Data?
    }

    private let options: CommandOptions
    private let single: BatchRun
    private let reporter: BatchReporter
    private let manifest: ManifestWriter?
    private let overwrites: Set<Int>
    private let positions: [Int: Int]
    /// Whether outputs on one stream get headers (a folder or several images).
    private let frames: Bool
    /// Inputs named directly, which no output may replace.
    private let protectedInputs: [String]
    private var waiting: [Int: Ready] = [:]
    private var nextPosition = 0
    private var manifestFailed = false
    private(set) var result = Result()

    init(
        batch: SupervisedBatch, single: BatchRun, reporter: BatchReporter, manifest: ManifestWriter?, jobs: [BatchJob], overwrites: Set<Int>
    ) {
        self.options = batch.options
        self.single = single
        self.reporter = reporter
        self.manifest = manifest
        self.overwrites = overwrites
        self.positions = Dictionary(uniqueKeysWithValues: jobs.enumerated().map { ($0.element.index, $0.offset) })
        self.frames = batch.framesStream
        self.protectedInputs = batch.options.inputs.filter { path in
            var isDirectory: ObjCBool = false
            return path != "-" && !(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    /// Handles one image's outcome.
    func receive(_ job: BatchJob, _ outcome: BatchJobOutcome) {
        let input = job.input
        var lines: [String]
        var status: ManifestEntry.Status
        var code: ExitCode
        var entry = ManifestEntry(
            input: input.relativePath, path: input.path, contentHash: nil, optionsHash: options.batch.optionsHash, status: .failed)
        var data: Data?
        switch outcome {
        case .replied(let reply, let printed):
            lines = Self.warnings(printed, input: input) + reply.diagnostics
            status = reply.status
            code = ExitCode(rawValue: reply.exitCode) ?? .inputFailed
            entry.contentHash = reply.contentHash
            entry.error = reply.error
            entry.failure = reply.failure
            entry.meanConfidence = reply.meanConfidence
            entry.hasText = reply.hasText
            entry.coverage = reply.coverage
            entry.warnings = reply.warnings
            entry.messages = printed
            entry.timings = reply.timings
            data = reply.output
        case .workerFailed(let error, let printed):
            lines = Self.warnings(printed, input: input) + ["snap-poem: error: \(error.description)\n"]
            status = .failed
            code = .inputFailed
            entry.error = error.description
            entry.failure = .input
            entry.messages = printed
        case .cancelled(let printed):
            lines = []
            status = .cancelled
            code = .interrupted
            entry.error = "\(input.path): cancelled"
            entry.messages = printed
        }

        if let folder = options.outputDirectory, let bytes = data, let destination = single.destination(for: input) {
            do throws(SnapPoemError) {
                try OutputFile.createParentFolders(of: destination)
                try OutputFile.write(bytes, to: destination, overwrite: overwrites.contains(job.index), protecting: protectedInputs)
                entry.output = SupervisedBatch.relative(destination, to: folder)
                entry.outputHash = ContentHash.of(bytes)
                result.delivered = true
            } catch {
                lines.append("snap-poem: error: \(error.description)\n")
                status = .failed
                code = .outputFailed
                entry.error = error.description
                entry.failure = .output
            }
            data = nil
        }
        entry.status = status
        switch status {
        case .ok: result.written += 1
        case .timedOut:
            result.written += 1
            result.partial += 1
        case .failed: result.failed += 1
        case .cancelled: result.cancelled += 1
        case .skipped: break
        }
        if status != .cancelled { result.outcomes.append(code) }
        result.finished += 1
        if let manifest {
            do throws(SnapPoemError) {
                try manifest.append(entry)
            } catch {
                if !manifestFailed { lines.append("snap-poem: error: \(error.description)\n") }
                manifestFailed = true
                result.outcomes.append(.outputFailed)
            }
        }
        if options.outputDirectory != nil {
            print(lines)
            reporter.finished(input, status: status, note: Self.note(entry, folder: options.outputDirectory))
        } else {
            reporter.finished(input, status: status, note: Self.note(entry, folder: nil))
            waiting[positions[job.index] ?? 0] = Ready(input: input, lines: lines, data: data)
            deliverInOrder()
        }
    }

    /// Delivers whatever still waits (after cancellation, some positions never come).
    func flush() {
        for position in waiting.keys.sorted() {
            if let ready = waiting.removeValue(forKey: position) { deliver(ready) }
        }
    }

    private func deliverInOrder() {
        while let ready = waiting.removeValue(forKey: nextPosition) {
            nextPosition += 1
            deliver(ready)
        }
    }

    private func deliver(_ ready: Ready) {
        print(ready.lines)
        guard var data = ready.data else { return }
        if frames, !options.export.mailto {
            switch options.export.format {
            case .text:
                let name = ready.input.isStandardInput ? "<stdin>" : ready.input.path
                data = Data(((result.delivered ? "\n" : "") + "==> \(name) <==\n").utf8) + data
            case .markdown where result.delivered: data = Data("\n---\n\n".utf8) + data
            default: break
            }
        }
        result.delivered = true
        if options.export.copy || options.export.collectsJSONLines && options.output.map({ $0 != "-" }) == true {
            result.collected.append(data)
        } else {
            single.console.writeOutput(data)
        }
    }

    private func print(_ lines: [String]) {
        for line in lines {
            if line.hasPrefix("snap-poem: report: ") {
                reporter.report(line)
            } else {
                reporter.diagnostic(line)
            }
        }
    }

    /// The most lines of what a worker printed that are shown for one image (the manifest
    /// keeps them all).
    static let printedLinesShown = 8

    /// What a worker printed, as warnings naming the image.
    private static func warnings(_ printed: [String], input: BatchInput) -> [String] {
        var lines = printed.prefix(printedLinesShown).map { "snap-poem: warning: \(input.path): \($0)\n" }
        if printed.count > printedLinesShown {
            lines.append("snap-poem: warning: \(input.path): … \(printed.count - printedLinesShown) more lines in the manifest\n")
        }
        return lines
    }

    /// `-v`'s line: `ok, confidence 93, 1.4 s → OUT/a.txt`; nil for failures, whose error
    /// lines say it all.
    private static func note(_ entry: ManifestEntry, folder: String?) -> String? {
        switch entry.status {
        case .ok, .timedOut:
            var parts = [entry.status == .ok ? "ok" : "cut short by --timeout"]
            if let confidence = entry.meanConfidence { parts.append("confidence \(confidence)") }
            if let total = entry.timings?.totalMs { parts.append(String(format: "%.1f s", Double(total) / 1000)) }
            var line = parts.joined(separator: ", ")
            if let folder, let output = entry.output {
                line += " → " + (folder.hasSuffix("/") ? folder : folder + "/") + output
            }
            return line
        case .cancelled: return "cancelled"
        case .failed, .skipped: return nil
        }
    }
}
