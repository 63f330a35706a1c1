import Foundation
import SnapPoem

/// A batch as the command line runs it: every image read in a supervised worker process
/// (`BatchSupervisor`), so one image that crashes, hangs or runs away with memory costs only
/// itself; with `--output-dir`, a manifest that makes the batch resumable; an honest summary
/// and exit code at the end.
///
/// Used when the command names a folder, several images, `--output-dir`, JSON Lines
/// (`--format jsonl`, `--output FILE.jsonl`) or `--progress json`; a single image file runs
/// in-process (`BatchRun`).
struct SupervisedBatch {
    let options: CommandOptions
    let console: Console
    let environment: [String: String]
    /// The command line as given, passed on to the workers.
    let arguments: [String]
    let collection: InputCollection

    /// Whether poems on one stream are framed (`==> name <==`, JSON Lines): for a folder, even
    /// one holding a single image, and for several images.
    var framesStream: Bool { collection.inputs.count > 1 || collection.hasFolderArgument }

    /// Whether the command is a batch in this sense.
    static func applies(to options: CommandOptions, collection: InputCollection) -> Bool {
        if options.outputDirectory != nil || options.export.collectsJSONLines || options.batch.progress == .json { return true }
        if collection.inputs.count > 1 || !collection.problems.isEmpty { return true }
        let writesOneFile = options.output.map { $0 != "-" } ?? false
        return collection.hasFolderArgument && !writesOneFile && options.savePreprocessed == nil && options.annotate == nil
    }

    /// Runs the batch: select and check the inputs, decide each one's fate, have the rest
    /// read by workers, then count. Returns the exit code.
    func run() async -> ExitCode {
        let reporter = BatchReporter(console: console, options: options.batch)
        let single = BatchRun(options: options, console: console, environment: environment)
        var clipboard: Clipboard?
        if options.export.copy {
            switch Clipboard.find(in: environment) {
            case .success(let found): clipboard = found
            case .failure(let failure):
                reporter.error("snap-poem: error: \(failure.message)\n")
                return .clipboardUnavailable
            }
        }
        var outcomes: [ExitCode] = []
        for problem in collection.problems {
            reporter.error("snap-poem: error: \(problem.description)\n")
            outcomes.append(.inputFailed)
        }
        for note in collection.notes { reporter.diagnostic("snap-poem: warning: \(note)\n") }
        let inputs: [BatchInput], shard: Shard?
        switch selectInputs(single: single, reporter: reporter) {
        case .finished(let code): return code ?? BatchRun.overall(outcomes)
        case .selected(let selected, let selectedShard): (inputs, shard) = (selected, selectedShard)
        }

        var jobs = inputs.enumerated().map { BatchJob(index: $0.offset, input: $0.element) }
        if let position = jobs.firstIndex(where: { $0.input.isStandardInput }) {
            jobs[position].contents = (try? FileHandle.standardInput.readToEnd()) ?? Data()
        }
        var plan = ResumePlan(toRead: jobs)
        var manifest: ManifestWriter?
        if let folder = options.outputDirectory {
            do throws(SnapPoemError) {
                (plan, manifest) = try prepareOutputFolder(folder, jobs: jobs, shard: shard, single: single, reporter: reporter)
            } catch {
                reporter.error("snap-poem: error: \(error.description)\n")
                return .outputFailed
            }
        }
        outcomes += plan.outcomes

        let delivery = SupervisedDelivery(
            batch: self, single: single, reporter: reporter, manifest: manifest, jobs: plan.toRead, overwrites: plan.overwrites)
        reporter.start(
            total: inputs.count, toRead: plan.toRead.count, skipped: plan.skipped, workers: min(options.jobs, plan.toRead.count))
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                reporter.tick()
            }
        }
        let (notStarted, startFailure) = await read(plan.toRead, delivery: delivery)
        ticker.cancel()
        await delivery.flush()
        manifest?.close()
        if let path = manifest?.path {
            do throws(SnapPoemError) { try BatchManifest.compact(fileAt: path) } catch {
                reporter.error("snap-poem: error: \(error.description)\n")
            }
        }

        // Counting: every input once.
        let result = await delivery.result
        outcomes += result.outcomes
        let cancelled = result.cancelled + notStarted.count
        var unread = 0
        if let startFailure {
            reporter.error("snap-poem: error: \(startFailure.message)\n")
            let code = ExitCode(rawValue: startFailure.code ?? ExitCode.ocrUnavailable.rawValue) ?? .ocrUnavailable
            if result.finished == 0 { return code }
            // Workers stopped starting midway: what they did not read counts as failed.
            unread = plan.toRead.count - result.finished - notStarted.count
        }
        if cancelled > 0 || Task.isCancelled { outcomes.append(.interrupted) }
        if !Task.isCancelled, cancelled == 0, startFailure == nil {
            outcomes += await deliverCollected(result, clipboard: clipboard, reporter: reporter)
        }
        let summary = BatchSummary(
            images: inputs.count, written: result.written, partial: result.partial, skipped: plan.skipped,
            failed: plan.failed + result.failed + unread, cancelled: cancelled)
        var exitCode = BatchRun.overall(outcomes)
        if let startFailure, exitCode == .success || exitCode == .inputFailed {
            exitCode = ExitCode(rawValue: startFailure.code ?? ExitCode.ocrUnavailable.rawValue) ?? .ocrUnavailable
        }
        reporter.end(summary: summary.line, fields: summary.fields(exitCode: exitCode.rawValue))
        return exitCode
    }

    /// What `selectInputs` found.
    private enum Selection {
        /// The inputs to read (at least one), and the shard they came from.
        case selected([BatchInput], Shard?)
        /// Nothing to read: end with this code, or with the problems found so far (nil).
        case finished(ExitCode?)
    }

    /// This run's inputs: the shard's (`--shard auto` resolved from the environment),
    /// checked for what only the expanded list can tell, with `--output`'s fate decided.
    private func selectInputs(single: BatchRun, reporter: BatchReporter) -> Selection {
        var shard = options.shard
        if let automatic = options.batch.automaticShard {
            do throws(SnapPoemError) {
                shard = try Shard.fromEnvironment(environment, count: automatic.count)
            } catch {
                console.writeError("snap-poem: error: \(error.description)\n\(HelpText.usage)\n  See 'snap-poem --help'.\n")
                return .finished(.usage)
            }
        }
        let inputs = shard?.select(collection.inputs) ?? collection.inputs
        if let problem = BatchRun.problemWithSeveral(inputs, options: options) ?? single.clashingDestination(inputs) {
            console.writeError("snap-poem: error: \(problem)\n\(HelpText.usage)\n  See 'snap-poem --help'.\n")
            return .finished(.usage)
        }
        if let output = options.output, output != "-", !options.force, FileManager.default.fileExists(atPath: output) {
            // Refused before any image is read.
            single.report(.outputNotWritten(path: output, reason: "the file exists; use --force to replace it"))
            return .finished(.outputFailed)
        }
        guard !inputs.isEmpty else {
            if let shard, !collection.inputs.isEmpty {
                reporter.diagnostic(
                    "snap-poem: note: shard \(shard.index)/\(shard.count) has no images (\(collection.inputs.count) in all, fewer than \(shard.count) shards)\n"
                )
            }
            return .finished(nil)
        }
        return .selected(inputs, shard)
    }

    /// Has `jobs` read by supervised workers, each outcome handed to `delivery`. Returns the
    /// jobs never started (after an interrupt) and why workers could not start, if they could not.
    private func read(_ jobs: [BatchJob], delivery: SupervisedDelivery) async -> ([BatchJob], BatchStartFailure?) {
        guard !jobs.isEmpty else { return ([], nil) }
        let executable: String
        switch WorkerExecutable.locate() {
        case .failure(let problem): return ([], BatchStartFailure(message: problem.message, code: ExitCode.ocrUnavailable.rawValue))
        case .success(let found): executable = found
        }
        let shape = framesStream || options.export.collectsJSONLines ? BatchWorkerMode.several : BatchWorkerMode.one
        let command = WorkerCommand(
            executable: executable, arguments: [BatchWorkerMode.argument, shape] + arguments, environment: environment)
        let supervisor = BatchSupervisor(command: command, workers: options.jobs, imageTimeLimit: options.batch.imageTimeLimit)
        do throws(BatchStartFailure) {
            let notStarted = try await supervisor.run(jobs) { job, outcome in await delivery.receive(job, outcome) }
            return (notStarted, nil)
        } catch {
            return ([], error)
        }
    }

    /// `--output FILE.jsonl` and `--copy`: what was collected goes out once, at the end.
    private func deliverCollected(_ result: SupervisedDelivery.Result, clipboard: Clipboard?, reporter: BatchReporter) async -> [ExitCode] {
        if let clipboard, result.delivered {
            do throws(Clipboard.Failure) {
                try await clipboard.copy(result.collected)
            } catch {
                reporter.error("snap-poem: error: \(error.message)\n")
                return [.clipboardUnavailable]
            }
        } else if let output = options.output, output != "-", options.export.collectsJSONLines {
            do throws(SnapPoemError) {
                try OutputFile.write(result.collected, to: output, overwrite: options.force, protecting: options.inputs)
            } catch {
                reporter.error("snap-poem: error: \(error.description)\n")
                return [.outputFailed]
            }
        }
        return []
    }

    /// Sets up `--output-dir`: the folder, stale temporary files of a killed run removed, the
    /// manifests read, each input's fate decided, this run's manifest compacted and opened.
    private func prepareOutputFolder(
        _ folder: String, jobs: [BatchJob], shard: Shard?, single: BatchRun, reporter: BatchReporter
    ) throws(SnapPoemError) -> (ResumePlan, ManifestWriter) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw .outputNotWritten(path: folder, reason: "it is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            let cause = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map {
                String(cString: strerror(Int32($0.code))).lowercased()
            }
            throw .outputNotWritten(path: folder, reason: "cannot create the folder" + (cause.map { ": \($0)" } ?? ""))
        }
        let manifestName = BatchManifest.fileName(for: shard)
        let manifestPath = URL(fileURLWithPath: folder).appendingPathComponent(manifestName).path
        var destinations: [Int: String] = [:]
        for job in jobs { destinations[job.index] = single.destination(for: job.input) }
        let removed = StaleTemporaryFiles.remove(for: Array(destinations.values) + [manifestPath])
        if removed > 0 {
            reporter.detail("snap-poem: removed \(removed) temporary file\(removed == 1 ? "" : "s") left by an interrupted run\n")
        }
        try BatchManifest.compact(fileAt: manifestPath)
        var previous: [String: (entry: ManifestEntry, own: Bool)] = [:]
        for name in BatchManifest.files(inFolder: folder) {
            let contents = BatchManifest.read(fileAt: URL(fileURLWithPath: folder).appendingPathComponent(name).path)
            for entry in contents.latest.values {
                let own = name == manifestName
                if let earlier = previous[entry.input],
                    earlier.entry.finishedAt > entry.finishedAt || (earlier.own && earlier.entry.finishedAt == entry.finishedAt)
                {
                    continue
                }
                previous[entry.input] = (entry, own)
            }
        }
        let writer = try ManifestWriter(path: manifestPath)
        var plan = ResumePlan(toRead: [])
        let policy = ResumeDecision.Policy(force: options.force, retryFailed: options.batch.retriesFailed)
        for job in jobs {
            guard let destination = destinations[job.index] else { continue }
            let relativeOutput = Self.relative(destination, to: folder)
            let earlier = previous[job.input.relativePath]?.entry
            let decision = ResumeDecision.decide(
                previous: earlier,
                contentHash: {
                    if let contents = job.contents { return ContentHash.of(contents) }
                    return (try? job.input.readContents()).map(ContentHash.of)
                },
                optionsHash: options.batch.optionsHash, output: relativeOutput,
                outputHash: { (try? InputFile.read(destination, limit: 1 << 32)).map(ContentHash.of) }, policy: policy)
            switch decision {
            case .read(let overwrite):
                plan.toRead.append(job)
                if overwrite { plan.overwrites.insert(job.index) }
            case .skip(var entry):
                entry.status = .skipped
                entry.path = job.input.path
                entry.error = nil
                entry.timings = nil
                entry.finishedAt = ManifestEntry.timestamp(Date())
                try writer.append(entry)
                plan.skipped += 1
                if earlier?.status == .timedOut {
                    reporter.diagnostic(
                        "snap-poem: warning: \(job.input.path): skipped; its text was cut short by --timeout before (--retry-failed reads it again)\n"
                    )
                    plan.outcomes.append(.timedOut)
                }
                reporter.detail("snap-poem: \(job.input.path): skipped (done before) → \(destination)\n")
            case .failedBefore(let entry):
                reporter.error(
                    "snap-poem: error: \(entry.error ?? "\(job.input.path): failed") (failed before; not read again without --retry-failed)\n"
                )
                plan.failed += 1
                plan.outcomes.append(.inputFailed)
            case .outputInTheWay:
                let error = SnapPoemError.outputNotWritten(path: destination, reason: "the file exists; use --force to replace it")
                reporter.error("snap-poem: error: \(error.description)\n")
                try writer.append(
                    ManifestEntry(
                        input: job.input.relativePath, path: job.input.path, contentHash: nil, optionsHash: options.batch.optionsHash,
                        status: .failed, error: error.description, failure: .output, output: relativeOutput))
                plan.failed += 1
                plan.outcomes.append(.outputFailed)
            }
        }
        return (plan, writer)
    }

    /// `OUT/sub/a.txt` relative to `OUT`: `sub/a.txt`.
    static func relative(_ path: String, to folder: String) -> String {
        let base = URL(fileURLWithPath: folder).path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// Which inputs a run reads, and what it already knows about the others.
struct ResumePlan {
    /// The jobs to read, in input order.
    var toRead: [BatchJob]
    /// Jobs whose existing output may be replaced.
    var overwrites: Set<Int> = []
    var skipped = 0
    /// Inputs that failed before and are not read again, and outputs in the way.
    var failed = 0
    /// The exit codes those call for.
    var outcomes: [ExitCode] = []
}

/// The closing line: `snap-poem: 29 images: 11 written, 16 skipped (done before), 2 failed, 0 cancelled`.
struct BatchSummary {
    var images: Int
    var written: Int
    /// Of `written`, how many were cut short by `--timeout`.
    var partial: Int
    var skipped: Int
    var failed: Int
    var cancelled: Int

    var line: String {
        let partialNote = partial > 0 ? " (\(partial) cut short by --timeout)" : ""
        return
            "snap-poem: \(images) image\(images == 1 ? "" : "s"): \(written) written\(partialNote), \(skipped) skipped (done before), \(failed) failed, \(cancelled) cancelled\n"
    }

    func fields(exitCode: Int32) -> [String: any Sendable] {
        [
            "images": images, "written": written, "partial": partial, "skipped": skipped, "failed": failed, "cancelled": cancelled,
            "exitCode": Int(exitCode),
        ]
    }
}

/// Temporary files that `OutputFile` leaves when a run is killed between creating and
/// renaming them: `.NAME.snap-poem-XXXXXX` beside the output `NAME`.
enum StaleTemporaryFiles {
    /// Removes those belonging to `paths` (this run's outputs and manifest; another shard's
    /// files in a shared folder are never touched). Returns how many were removed.
    static func remove(for paths: [String]) -> Int {
        var namesByFolder: [String: Set<String>] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path)
            namesByFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var removed = 0
        for (folder, names) in namesByFolder {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries where entry.hasPrefix(".") {
                guard let owner = owner(ofTemporary: entry), names.contains(owner) else { continue }
                if unlink(URL(fileURLWithPath: folder).appendingPathComponent(entry).path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// `a.txt` for `.a.txt.snap-poem-Ab12Cd`; nil for any other name.
    static func owner(ofTemporary name: String) -> String? {
        let marker = ".snap-poem-"
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
        let suffix = name[range.upperBound...]
        guard suffix.count == 6, suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        let owner = name[name.index(after: name.startIndex)..<range.lowerBound]
        return owner.isEmpty ? nil : String(owner)
    }
}
