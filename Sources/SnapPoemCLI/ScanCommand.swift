import Foundation
import SnapPoem
import Synchronization

/// The command's one path for images, whatever their number: the inputs are collected and
/// checked, every output's fate is decided before any image is read, the images are read
/// (`BatchReader`: worker processes for a batch, this process for a single image, through
/// the same `ImageReader`), each outcome is delivered (`OutcomeDelivery`: files, manifest
/// lines, then in input order what to say and the poem for standard output), and the exit
/// code follows from what the `DiagnosticsEngine` counted.
///
/// A run is a **batch** when it names a folder (unless it writes one file), several images,
/// `--output-dir`, JSON Lines or `--progress json`: then workers read the images, poems on
/// one stream are framed, and a summary ends the run. A single image file is a batch of
/// one read in this process, with its recognition progress shown on a terminal.
struct ScanCommand {
    let options: CommandOptions
    let console: Console
    /// The environment `--copy` looks for a clipboard tool in, `--shard auto` for a
    /// scheduler, and workers are started with.
    let environment: [String: String]
    /// Where temporary files are registered while they are written.
    let unfinished: UnfinishedFiles

    func run() async -> ExitCode {
        let diagnostics = DiagnosticsEngine(console: console, verbosity: options.batch.verbosity, progress: options.batch.progress)
        let collection = InputCollection.collect(
            options.inputs, fileSystemPaths: SnapPoemMain.argumentBytes, followsLinksOutside: options.batch.followsLinksOutside)
        if options.batch.checksManifests {
            return ManifestCheck(options: options, collection: collection, diagnostics: diagnostics).run()
        }
        diagnostics.emit(options.deletingReplacements.map(CommandOptions.deletionWarning))
        guard let prepared = await prepare(collection, diagnostics: diagnostics) else { return diagnostics.exitCode }
        if !prepared.shape.isBatch { diagnostics.readsOneImage() }
        let read = await readAndDeliver(prepared, diagnostics: diagnostics)
        await finish(prepared, read, diagnostics: diagnostics)
        return diagnostics.exitCode
    }

    /// What is known before any image is read.
    private struct Prepared {
        let shape: Shape
        let clipboard: Clipboard?
        /// This run's inputs (its shard's).
        let inputs: [BatchInput]
        let protected: ProtectedFiles
        /// Jobs that failed before they could be read (standard input closed or too large).
        let failedAtOnce: [(ImageJob, ImageOutcome)]
        /// The jobs to read.
        let toRead: [ImageJob]
        /// With `--output-dir`: what earlier work decided.
        let plan: ResumePlan?
        let destination: OutcomeDelivery.Destination
        /// With `--output-dir`: this run's manifest and its name.
        let manifest: (writer: ManifestWriter, name: String)?
    }

    /// What reading and delivering left.
    private struct Read {
        let sink: StreamSink
        let counts: OutcomeDelivery.Counts
        let notStarted: [ImageJob]
        let startFailure: BatchStartFailure?
    }

    /// Everything before any image is read: the clipboard, the inputs and their checks,
    /// standard input (read now, bounded as a file is), and with `--output-dir` every
    /// output's fate. Nil when the run ends here (the reason said).
    private func prepare(_ collection: InputCollection, diagnostics: DiagnosticsEngine) async -> Prepared? {
        let shape = Shape(options: options, collection: collection)
        var clipboard: Clipboard?
        if options.copy {
            switch Clipboard.find(in: environment) {
            case .success(let found): clipboard = found
            case .failure(let failure):
                diagnostics.emit(Diagnostic(.error, failure.message, category: .clipboard))
                return nil
            }
        }
        diagnostics.emit(collection.problems.map { Diagnostic($0) })
        diagnostics.emit(collection.notes)
        guard let (selected, shard) = select(collection, diagnostics: diagnostics) else { return nil }
        var inputs = selected
        var protected = ProtectedFiles(fileSystemPaths: inputs.map(\.fileSystemPath))
        if let path = options.outputDirectory {
            let (images, manifests) = BatchManifest.separating(
                BatchManifest.fileName(for: shard), inFolderAt: path, from: inputs, protected: protected)
            if !manifests.isEmpty {
                for manifest in manifests {
                    diagnostics.emit(
                        Diagnostic(.warning, "skipped: it is this batch's manifest, not an image", subject: manifest.path))
                }
                inputs = images
                protected = ProtectedFiles(fileSystemPaths: inputs.map(\.fileSystemPath))
            }
        }
        var jobs = inputs.enumerated().map { ImageJob(index: $0.offset, input: $0.element) }
        var failedAtOnce: [(ImageJob, ImageOutcome)] = []
        if let position = jobs.firstIndex(where: { $0.input.isStandardInput }) {
            do throws(SnapPoemError) {
                jobs[position].contents = try await readStandardInput()
            } catch {
                failedAtOnce.append((jobs[position], .failed(error)))
                jobs.remove(at: position)
            }
        }
        guard let path = options.outputDirectory else {
            let writesOneFile = options.output.map { $0 != "-" } == true && !options.collectsJSONLines
            return Prepared(
                shape: shape, clipboard: clipboard, inputs: inputs, protected: protected, failedAtOnce: failedAtOnce, toRead: jobs,
                plan: nil, destination: writesOneFile ? .file(options.output ?? "") : .handedOver, manifest: nil)
        }
        do throws(SnapPoemError) {
            let folder = try OutputFolder(creatingAt: path)
            let layout = OutputLayout(fileExtension: options.export.format.fileExtension, keepsExtension: options.batch.keepsExtension)
            let manifestName = BatchManifest.fileName(for: shard)
            let removed = folder.removeStaleTemporaryFiles(for: jobs.map { layout.relativePath(for: $0.input) } + [manifestName])
            if removed > 0 {
                diagnostics.emit(
                    Diagnostic(.remark, "removed \(removed) temporary file\(removed == 1 ? "" : "s") left by an interrupted run"))
            }
            let dropped = try BatchManifest.compact(manifestName, in: folder, protecting: protected, unfinished: unfinished)
            if dropped > 0 {
                diagnostics.emit(
                    Diagnostic(
                        .warning,
                        "\(folder.shownPath(manifestName)): \(dropped) line\(dropped == 1 ? "" : "s") that could not be read left out of the manifest (a run killed while writing leaves one torn line)"
                    ))
            }
            let manifests = try ManifestSet(reading: folder, own: manifestName)
            let writer = try ManifestWriter(manifestName, in: folder)
            let plan = ResumePlan(
                jobs: jobs, folder: folder, layout: layout, manifests: manifests, optionsHash: options.batch.optionsHash,
                policy: ResumeDecision.Policy(force: options.force, retryFailed: options.batch.retriesFailed), protecting: protected)
            for entry in plan.entries { try writer.append(entry) }
            diagnostics.emit(plan.diagnostics)
            return Prepared(
                shape: shape, clipboard: clipboard, inputs: inputs, protected: protected, failedAtOnce: failedAtOnce,
                toRead: plan.toRead, plan: plan, destination: .folder(folder, layout, writer), manifest: (writer, manifestName))
        } catch {
            // The output folder cannot take the run's outputs: nothing is read (exit 73).
            var refusal = Diagnostic(error)
            refusal.category = .output
            diagnostics.emit(refusal)
            return nil
        }
    }

    /// Has the jobs read (`read(_:configuration:delivery:diagnostics:)`) and each outcome
    /// delivered, with the progress shown; closes and compacts the manifest.
    private func readAndDeliver(_ prepared: Prepared, diagnostics: DiagnosticsEngine) async -> Read {
        let shape = prepared.shape
        let sink = StreamSink(options: options, shape: shape, console: console, diagnostics: diagnostics)
        var settings = OutcomeDelivery.Settings(destination: prepared.destination)
        settings.imagePaths[.preprocessed] = options.savePreprocessed
        settings.imagePaths[.annotated] = options.annotate
        settings.overwrite = options.force
        settings.overwrites = prepared.plan?.overwrites ?? []
        settings.earlierOutputs = prepared.plan?.earlierOutputs ?? [:]
        settings.protected = prepared.protected
        settings.optionsHash = options.batch.optionsHash
        settings.unfinished = unfinished
        let delivered = (prepared.failedAtOnce.map(\.0) + prepared.toRead).sorted { $0.index < $1.index }
        let delivery = OutcomeDelivery(jobs: delivered, settings: settings, deliver: sink.deliver)
        if shape.isBatch {
            diagnostics.startBatch(
                total: prepared.inputs.count, toRead: delivered.count, skipped: prepared.plan?.skipped ?? 0,
                workers: min(options.jobs, prepared.toRead.count))
        } else if let first = prepared.toRead.first {
            diagnostics.startImage(label: first.input.path)
        }
        for (job, outcome) in prepared.failedAtOnce { await delivery.receive(job, outcome) }
        // A batch's bar is redrawn every second, so that the time keeps moving.
        let ticker =
            shape.isBatch
            ? Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    diagnostics.tick()
                }
            } : nil
        let configuration = WorkerConfiguration(
            scan: options.scan, export: shape.request(options.export), memoryLimit: options.batch.workerMemory)
        let (notStarted, startFailure) = await read(
            prepared.toRead, configuration: configuration, shape: shape, delivery: delivery, diagnostics: diagnostics)
        ticker?.cancel()
        let counts = await delivery.finish()
        if let (writer, name) = prepared.manifest, case .folder(let folder, _, _) = prepared.destination {
            writer.close()
            do throws(SnapPoemError) {
                try BatchManifest.compact(name, in: folder, protecting: prepared.protected, unfinished: unfinished)
            } catch {
                diagnostics.emit(Diagnostic(error))
            }
        }
        return Read(sink: sink, counts: counts, notStarted: notStarted, startFailure: startFailure)
    }

    /// Counts every input once, delivers what was collected (`--copy`, `-o FILE.jsonl`) and
    /// ends a batch with its summary.
    private func finish(_ prepared: Prepared, _ read: Read, diagnostics: DiagnosticsEngine) async {
        let counts = read.counts
        let cancelled = counts.cancelled + read.notStarted.count
        var unread = 0
        if let startFailure = read.startFailure {
            diagnostics.emit(startFailure.diagnostic)
            if counts.finished == prepared.failedAtOnce.count {
                diagnostics.finishProgress()
                return
            }
            // Workers stopped starting midway: what they did not read counts as failed.
            unread = prepared.toRead.count + prepared.failedAtOnce.count - counts.finished - read.notStarted.count
        }
        if cancelled > 0 || Task.isCancelled { diagnostics.count(.cancelled) }
        if !Task.isCancelled, cancelled == 0, read.startFailure == nil {
            await deliverCollected(read.sink, clipboard: prepared.clipboard, protected: prepared.protected, diagnostics: diagnostics)
        }
        guard prepared.shape.isBatch else {
            diagnostics.finishProgress()
            return
        }
        diagnostics.endBatch(
            BatchSummary(
                images: prepared.inputs.count, written: counts.written, partial: counts.partial, skipped: prepared.plan?.skipped ?? 0,
                failed: (prepared.plan?.failed ?? 0) + counts.failed + unread, cancelled: cancelled))
    }

    /// This run's inputs, and the shard they come from: the shard's (`--shard auto` resolved
    /// from the environment), checked for what only the expanded list can tell, and every
    /// named output checked before any image is read. Nil when the run ends here.
    private func select(_ collection: InputCollection, diagnostics: DiagnosticsEngine) -> ([BatchInput], Shard?)? {
        var shard = options.shard
        if let automatic = options.batch.automaticShard {
            do throws(SnapPoemError) {
                shard = try Shard.fromEnvironment(environment, count: automatic.count)
            } catch {
                let flag = error.setting == .shardCount ? automatic.count.map { "--shard auto/\($0)" } : nil
                diagnostics.usageError(error.commandLineDescription(flag: flag))
                return nil
            }
        }
        let inputs = shard?.select(collection.inputs) ?? collection.inputs
        if let problem = options.oneImageProblem(count: inputs.count, found: true) ?? clashingOutputs(inputs) {
            diagnostics.usageError(problem)
            return nil
        }
        for path in [options.output, options.savePreprocessed, options.annotate].compactMap({ $0 }) where path != "-" {
            do throws(SnapPoemError) {
                try OutputFile.checkDestination(path, overwrite: options.force)
            } catch {
                diagnostics.emit(Diagnostic(error))
                return nil
            }
        }
        guard !inputs.isEmpty else {
            if let shard, !collection.inputs.isEmpty {
                diagnostics.emit(
                    Diagnostic(
                        .note,
                        "shard \(shard.index)/\(shard.count) has no images (\(collection.inputs.count) in all, fewer than \(shard.count) shards)"
                    ))
            }
            return nil
        }
        return (inputs, shard)
    }

    /// Two inputs that would be written to the same file of `--output-dir` (`a.png` and
    /// `a.jpg` both give `a.txt`): refused before anything is read, with the advice that
    /// fits: one file given twice is said to be so; `--keep-extension` is suggested only
    /// when it is not given and would tell the two apart.
    private func clashingOutputs(_ inputs: [BatchInput]) -> String? {
        guard let folder = options.outputDirectory else { return nil }
        let layout = OutputLayout(fileExtension: options.export.format.fileExtension, keepsExtension: options.batch.keepsExtension)
        func shown(_ relative: String) -> String { URL(fileURLWithPath: folder).appendingPathComponent(relative).path }
        guard let clash = layout.firstClash(in: inputs) else {
            guard let nesting = layout.firstFileInTheWay(in: inputs) else { return nil }
            var whole = layout
            whole.keepsExtension = true
            let advice =
                !layout.keepsExtension && whole.firstFileInTheWay(in: inputs) == nil && whole.firstClash(in: inputs) == nil
                ? "add '--keep-extension' to name outputs after whole input names, or rename one" : "rename one of them"
            return
                "'\(nesting.file.path)' would be written to '\(shown(nesting.output))', where '\(nesting.nested.path)' needs a folder of that name (for '\(shown(nesting.nestedOutput))'); \(advice)."
        }
        if let twice = layout.firstRepeat(in: inputs) {
            let named =
                twice.first.path == twice.second.path
                ? "'\(twice.first.path)' is given twice" : "'\(twice.first.path)' and '\(twice.second.path)' are the same file, given twice"
            return "\(named) (both would be written to '\(shown(twice.output))'); name each image, and each folder, once."
        }
        var whole = layout
        whole.keepsExtension = true
        guard let stubborn = whole.firstClash(in: inputs) else {
            return
                "'\(clash.first.path)' and '\(clash.second.path)' would both be written to '\(shown(clash.output))'; add '--keep-extension' to name outputs after whole input names."
        }
        // Two inputs that --keep-extension does not part: the same path below two folders.
        let output = shown(layout.relativePath(for: stubborn.first))
        return "'\(stubborn.first.path)' and '\(stubborn.second.path)' would both be written to '\(output)'"
            + (layout.keepsExtension ? ", even with --keep-extension" : "")
            + ": they have the same name below the folders given; read them in separate runs, each with its own --output-dir, or rename one."
    }

    /// Standard input, whole, at most as much as an image file may hold; `-` cancelled by
    /// Ctrl-C while it waits. Read on a Dispatch thread: waiting blocks.
    private func readStandardInput() async throws(SnapPoemError) -> Data {
        if console.inputIsClosed { throw .unreadableFile(path: "<stdin>", reason: "standard input is closed") }
        let limit = options.scan.imageLimits.maxFileBytes
        return try await offloadStoppable { stop throws(SnapPoemError) in
            try InputFile.read("-", limit: limit, shouldStop: { stop.isRaised })
        }
    }

    /// Has `jobs` read, each outcome handed to `delivery`: by supervised workers for a
    /// batch, in this process for a single image. Returns the jobs never finished (after an
    /// interrupt) and why nothing could read them, if nothing could.
    private func read(
        _ jobs: [ImageJob], configuration: WorkerConfiguration, shape: Shape, delivery: OutcomeDelivery, diagnostics: DiagnosticsEngine
    ) async -> ([ImageJob], BatchStartFailure?) {
        guard !jobs.isEmpty else { return ([], nil) }
        let reader: any BatchReader
        if shape.isBatch {
            switch WorkerExecutable.locate() {
            case .failure(let problem):
                return ([], BatchStartFailure(Diagnostic(.error, problem.message, category: .engine)))
            case .success(let executable):
                reader = BatchSupervisor(
                    command: WorkerCommand(executable: executable, arguments: [SnapPoemMain.workerArgument], environment: environment),
                    configuration: configuration, workers: options.jobs, imageTimeLimit: options.batch.imageTimeLimit)
            }
        } else {
            // Recognition progress is asked for only when a bar shows it.
            var progress: (@Sendable (ImageJob, Int) -> Void)?
            if diagnostics.mode == .bar { progress = { _, percent in diagnostics.imageProgress(percent) } }
            reader = InProcessReader(configuration: configuration, progress: progress)
        }
        do throws(BatchStartFailure) {
            let notStarted = try await reader.read(jobs, onStart: { _ in }) { job, outcome in await delivery.receive(job, outcome) }
            return (notStarted, nil)
        } catch {
            return ([], error)
        }
    }

    /// `--output FILE.jsonl` and `--copy`: what was collected goes out once, at the end.
    private func deliverCollected(
        _ sink: StreamSink, clipboard: Clipboard?, protected: ProtectedFiles, diagnostics: DiagnosticsEngine
    ) async {
        guard let collected = sink.collected else { return }
        if let clipboard {
            do throws(Clipboard.Failure) {
                try await clipboard.copy(collected)
                if console.errorIsTerminal { diagnostics.say("copied to the clipboard") }
            } catch {
                diagnostics.emit(Diagnostic(.error, error.message, category: .clipboard))
            }
        } else if let output = options.output, output != "-", options.collectsJSONLines {
            do throws(SnapPoemError) {
                try OutputFile.write(collected, to: output, overwrite: options.force, protecting: protected, unfinished: unfinished)
            } catch {
                diagnostics.emit(Diagnostic(error))
            }
        }
    }
}

extension ScanCommand {
    /// What the inputs make of a run: a batch or a single image, and how poems share a
    /// stream.
    struct Shape: Sendable {
        /// Whether the run is a batch (read by workers, with a summary).
        let isBatch: Bool
        /// Whether poems on one stream get headers (`==> name <==`) or rules between them:
        /// a batch of a folder (even one holding a single image) or of several images.
        let framesStream: Bool
        /// Whether the poems are several in one batch: warnings about replacements name each,
        /// and JSON on one stream is JSON Lines.
        let namesPoems: Bool
        /// Whether JSON is written one document a line.
        let jsonLines: Bool

        init(options: CommandOptions, collection: InputCollection) {
            let several = collection.inputs.count > 1 || collection.hasFolderArgument
            let writesOneFile = options.output.map { $0 != "-" } ?? false
            isBatch =
                options.outputDirectory != nil || options.collectsJSONLines || options.batch.progress == .json
                || collection.inputs.count > 1 || !collection.problems.isEmpty
                || (collection.hasFolderArgument && !writesOneFile && options.savePreprocessed == nil && options.annotate == nil)
            framesStream = isBatch && several
            namesPoems = isBatch && (several || options.collectsJSONLines)
            jsonLines = (namesPoems && options.outputDirectory == nil) || options.collectsJSONLines
        }

        /// The export request as this shape has it.
        func request(_ base: ExportRequest) -> ExportRequest {
            var request = base
            request.namesPoemInReplacementWarnings = namesPoems
            request.jsonLayout = jsonLines ? .jsonLines : .pretty
            return request
        }
    }
}

/// Where the delivered poems go when they are not files: standard output in input order,
/// framed for a stream (`==> name <==` before each text, a rule between Markdown documents;
/// JSON is JSON Lines already), or collected for `--copy` and `--output FILE.jsonl`. Also
/// says, for each image, what the delivery found to say (through the `DiagnosticsEngine`).
final class StreamSink: Sendable {
    private struct State {
        var collected = Data()
        var delivered = false
    }

    private let options: CommandOptions
    private let shape: ScanCommand.Shape
    private let console: Console
    private let diagnostics: DiagnosticsEngine
    private let collects: Bool
    private let state = Mutex(State())

    init(options: CommandOptions, shape: ScanCommand.Shape, console: Console, diagnostics: DiagnosticsEngine) {
        self.options = options
        self.shape = shape
        self.console = console
        self.diagnostics = diagnostics
        self.collects = options.copy || (options.collectsJSONLines && options.output.map { $0 != "-" } == true)
    }

    /// What was collected for `--copy` or one JSON Lines file; nil when nothing was delivered.
    var collected: Data? {
        state.withLock { $0.delivered ? $0.collected : nil }
    }

    /// Takes one delivered image, in input order.
    @Sendable func deliver(_ delivery: OutcomeDelivery.Delivery) {
        diagnostics.emit(delivery.diagnostics)
        diagnostics.count(delivery.outcome.status.category)
        if shape.isBatch {
            diagnostics.imageFinished(
                delivery.job.input, status: delivery.outcome.status.manifestStatus, note: Self.note(delivery))
        }
        guard var data = delivery.document else {
            if delivery.writtenTo != nil { state.withLock { $0.delivered = true } }
            return
        }
        if !shape.isBatch { diagnostics.finishProgress() }
        state.withLock { state in
            if shape.framesStream, !options.export.mailtoLink {
                switch options.export.format {
                case .text:
                    let name = OneLine.escaping(delivery.job.input.shownPath)
                    data = Data(((state.delivered ? "\n" : "") + "==> \(name) <==\n").utf8) + data
                case .markdown where state.delivered: data = Data("\n---\n\n".utf8) + data
                default: break
                }
            }
            state.delivered = true
            if collects {
                state.collected.append(data)
            } else {
                console.writeOutput(data)
            }
        }
    }

    /// `-v`'s line: `ok, confidence 93, 1.4 s → OUT/a.txt`; nil for failures, whose error
    /// lines say it all.
    private static func note(_ delivery: OutcomeDelivery.Delivery) -> String? {
        let outcome = delivery.outcome
        switch outcome.status {
        case .ok, .timedOut:
            var parts = [outcome.status == .ok ? "ok" : "cut short by --timeout"]
            if let confidence = outcome.meanConfidence { parts.append("confidence \(confidence)") }
            if let total = outcome.totalTime { parts.append(String(format: "%.1f s", Double(total.wholeMilliseconds) / 1000)) }
            var line = parts.joined(separator: ", ")
            if let written = delivery.writtenTo, delivery.entry != nil { line += " → " + written }
            return line
        case .cancelled: return "cancelled"
        case .failed: return nil
        }
    }
}
