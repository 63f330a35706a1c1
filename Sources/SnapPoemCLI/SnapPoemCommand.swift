import Foundation
import SnapPoem
import Synchronization

/// The `snap-poem` command: parses the command line, runs the library's pipeline on each
/// image and writes the results. A thin layer: every stage lives in `SnapPoem`.
public enum SnapPoemCommand {
    /// Runs the command with `arguments` (without the program name) and returns the exit code.
    /// Never calls `exit`, so tests run it in-process.
    public static func run(_ arguments: [String]) async -> Int32 {
        await run(arguments, console: .standard)
    }

    static func run(
        _ arguments: [String], console: Console, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        switch plan(arguments, console: console) {
        case .answered(let code):
            return exitCode(code, console: console)
        case .serve(let serveArguments):
            return exitCode(await ServeCommand.run(serveArguments, console: console).rawValue, console: console)
        case .scan(let options):
            let code = await BatchCommand.run(options: options, arguments: arguments, console: console, environment: environment)
            return exitCode(code.rawValue, console: console)
        }
    }

    /// What a command line asks for: an answer given at once, the service, or images to read.
    enum Plan {
        /// Help, the version, the language list or a usage error was written; the exit code.
        case answered(Int32)
        /// `snap-poem serve` with these arguments (after `serve`), parsed by `ServeCommand`.
        case serve([String])
        /// Images to read with these options.
        case scan(CommandOptions)
    }

    /// Parses `arguments` and answers at once what needs no image, and no thread: help, the
    /// version, the language list, usage errors.
    static func plan(_ arguments: [String], console: Console) -> Plan {
        if arguments.first == ServeCommand.name { return .serve(Array(arguments.dropFirst())) }
        let options: CommandOptions
        do {
            options = try CommandOptions(try ParsedArguments.parse(arguments))
        } catch {
            console.writeError("snap-poem: error: \(OneLine.escaping(error.message))\n\(HelpText.usage)\n  See 'snap-poem --help'.\n")
            return .answered(ExitCode.usage.rawValue)
        }
        if options.showHelp {
            console.writeOutput(Data(HelpText.render().utf8))
            return .answered(ExitCode.success.rawValue)
        }
        if options.showVersion {
            console.writeOutput(
                Data("snap-poem \(SnapPoem.version) (Tesseract \(Versions.tesseract), Leptonica \(Versions.leptonica))\n".utf8))
            return .answered(ExitCode.success.rawValue)
        }
        if options.listLanguages {
            return .answered(listLanguages(options, console: console).rawValue)
        }
        return .scan(options)
    }

    /// The exit code to return after `code`: 74 instead when standard output or standard
    /// error could not be written (unless interrupted, which comes first).
    static func exitCode(_ code: Int32, console: Console) -> Int32 {
        guard code != ExitCode.interrupted.rawValue, console.failures?.any == true else { return code }
        return ExitCode.streamFailed.rawValue
    }

    /// `--list-langs`: the languages of the tessdata folder that would be used, one a line.
    static func listLanguages(_ options: CommandOptions, console: Console) -> ExitCode {
        do throws(SnapPoemError) {
            let location = try TessdataLocation.resolve(explicit: options.scan.engine.tessdataDirectory)
            console.writeError("Languages in \(location.directory.path):\n")
            console.writeOutput(Data(location.availableLanguages.map { $0 + "\n" }.joined().utf8))
            return .success
        } catch {
            console.writeError("snap-poem: error: \(error.description)\n")
            return .ocrUnavailable
        }
    }
}

/// One invocation's work over its inputs: folders are expanded, a shard is selected, images
/// are read by `--jobs` workers in parallel, and results are delivered in input order. Every
/// input is tried, failures are reported as they are delivered, and the exit code is decided
/// at the end.
struct BatchRun {
    let options: CommandOptions
    let console: Console
    /// The environment `--copy` looks for a clipboard tool and a display in.
    var environment: [String: String] = ProcessInfo.processInfo.environment

    func run() async -> ExitCode {
        var clipboard: Clipboard?
        if options.export.copy {
            switch Clipboard.find(in: environment) {
            case .success(let found): clipboard = found
            case .failure(let failure):
                console.writeError("snap-poem: error: \(failure.message)\n")
                return .clipboardUnavailable
            }
        }
        if console.inputIsClosed, options.inputs.contains("-") {
            report(.unreadableFile(path: "<stdin>", reason: "standard input is closed"))
            return .inputFailed
        }
        var inputs: [BatchInput]
        do throws(SnapPoemError) {
            inputs = try BatchInput.collect(options.inputs)
        } catch {
            report(error)
            return .inputFailed
        }
        if let shard = options.shard { inputs = shard.select(inputs) }
        if let problem = Self.problemWithSeveral(inputs, options: options) ?? clashingDestination(inputs) {
            console.writeError("snap-poem: error: \(OneLine.escaping(problem))\n\(HelpText.usage)\n  See 'snap-poem --help'.\n")
            return .usage
        }
        guard !inputs.isEmpty else {
            let shardNote = options.shard.map { " in shard \($0.index)/\($0.count)" } ?? ""
            let named = OneLine.escaping(options.inputs.joined(separator: ", "))
            console.writeError("snap-poem: warning: no images to read\(shardNote) in \(named)\n")
            return .success
        }
        let delivery = Delivery(run: self, inputs: inputs)
        let several = inputs.count > 1
        let progress = console.errorIsTerminal ? ProgressLine(console: console, label: several ? "images" : inputs[0].path) : nil
        progress?.update(0)
        let batch = BatchScanner(configuration: options.scan, workers: options.jobs)
        var imageProgress: (@Sendable (Int, Int) -> Void)?
        if let progress, !several { imageProgress = { _, percent in progress.update(percent) } }
        let finished = Counter(), total = inputs.count
        let onResult: @Sendable (BatchResult) async -> Void = { result in
            if several { progress?.update(finished.increment() - 1, of: total) }
            await delivery.receive(result, progress: progress)
        }
        do throws(SnapPoemError) {
            try await batch.scan(inputs, progress: imageProgress, onResult: onResult)
        } catch {
            progress?.finish()
            report(error)
            return error.isUsageProblem ? .usage : .ocrUnavailable
        }
        progress?.finish()
        var outcomes = await delivery.outcomes
        if Task.isCancelled { outcomes.append(.interrupted) }
        if let clipboard, let text = await delivery.clipboardText {
            do throws(Clipboard.Failure) {
                try await clipboard.copy(text)
                if console.errorIsTerminal { console.writeError("snap-poem: copied to the clipboard\n") }
            } catch {
                console.writeError("snap-poem: error: \(error.message)\n")
                outcomes.append(.clipboardUnavailable)
            }
        }
        if several {
            let failed = outcomes.filter { $0 == .inputFailed }.count
            console.writeError("snap-poem: \(inputs.count) images: \(inputs.count - failed) read, \(failed) failed\n")
        }
        return Self.overall(outcomes)
    }

    /// Checks what only the expanded list of inputs can tell: one output file or a
    /// one-document format cannot take several images.
    static func problemWithSeveral(_ inputs: [BatchInput], options: CommandOptions) -> String? {
        guard inputs.count > 1 else { return nil }
        if let path = options.savePreprocessed {
            return "'--save-preprocessed \(path)' takes one image, but \(inputs.count) were found."
        }
        if let path = options.annotate {
            return CommandOptions.annotateTakesOneImage(path, count: inputs.count, found: true)
        }
        guard options.outputDirectory == nil else { return nil }
        if let output = options.output, output != "-", !options.export.collectsJSONLines {
            return
                "'--output \(output)' takes one image, but \(inputs.count) were found; use '--output-dir DIR' for several, or '--output FILE.jsonl' for one JSON Lines file."
        }
        if !options.export.format.allowsSeveralPoemsInOneStream {
            return
                "'--format \(options.export.format.rawValue)' makes one document per image, but \(inputs.count) images were found; use '--output-dir DIR'."
        }
        return nil
    }

    /// Two inputs that would be written to the same file of `--output-dir` (`a.png` and
    /// `a.jpg` both give `a.txt`): refused before anything is read.
    func clashingDestination(_ inputs: [BatchInput]) -> String? {
        guard options.outputDirectory != nil else { return nil }
        var seen: [String: String] = [:]
        for input in inputs {
            guard let destination = destination(for: input) else { continue }
            if let earlier = seen[destination] {
                return
                    "'\(earlier)' and '\(input.path)' would both be written to '\(destination)'; add '--keep-extension' to name outputs after whole input names."
            }
            seen[destination] = input.path
        }
        return nil
    }

    /// The longest `mailto:` URL that browsers and mail clients are known to pass on whole.
    static let longestSafeURL = 2000

    /// The worst outcome decides the exit code.
    static func overall(_ outcomes: [ExitCode]) -> ExitCode {
        let severity: [ExitCode] = [.interrupted, .outputFailed, .clipboardUnavailable, .inputFailed, .timedOut]
        return severity.first(where: outcomes.contains) ?? .success
    }

    /// Reports one finished input and renders its export; returns the outcome and the bytes
    /// to deliver (nil when the image failed).
    func finish(_ result: BatchResult, several: Bool) -> (ExitCode, Data?) {
        let input = result.input.path
        let poem: ScannedPoem
        switch result.outcome {
        case .success(let scanned): poem = scanned
        case .failure(let error):
            report(error)
            if case .cancelled = error { return (.interrupted, nil) }
            return (.inputFailed, nil)
        }
        // Escaped: a file name holding a line break must not split a diagnostic in two.
        let displayName = OneLine.escaping(input == "-" ? "<stdin>" : input)
        for note in poem.imageFacts.warnings + poem.preprocessingReport.notes {
            console.writeError("snap-poem: warning: \(displayName): \(note)\n")
        }
        if let path = options.savePreprocessed, let image = poem.preprocessedImage {
            do throws(SnapPoemError) {
                try OutputFile.write(image.pngData(), to: path, overwrite: options.force, protecting: options.inputs)
            } catch {
                report(error.naming(input))
                return (.outputFailed, nil)
            }
        }
        if let path = options.annotate {
            do throws(SnapPoemError) {
                try OutputFile.write(try poem.annotated().pngData(), to: path, overwrite: options.force, protecting: options.inputs)
            } catch {
                report(error)
                return (.outputFailed, nil)
            }
        }
        if !poem.page.hasText && !poem.page.timedOut {
            console.writeError("snap-poem: warning: \(displayName): no text was found in the image\n")
        }
        for warning in CoverageWarning.lines(for: poem, name: displayName, format: options.export.format) {
            console.writeError("snap-poem: warning: \(warning)\n")
        }
        PersonalizationReport(poem: poem, name: displayName, namesInput: several)
            .write(to: console, listingChanges: options.report)
        let data: Data
        do throws(SnapPoemError) {
            data = try render(poem, displayName: displayName, several: several)
        } catch {
            report(error)
            return (.outputFailed, nil)
        }
        if poem.page.timedOut {
            let seconds =
                options.scan.recognition.timeLimit.map {
                    "\($0.components.seconds).\(String(format: "%03d", Int($0.components.attoseconds / 1_000_000_000_000_000)))"
                } ?? "?"
            console.writeError("snap-poem: warning: \(displayName): time limit of \(seconds) s reached; the text is partial\n")
            return (.timedOut, data)
        }
        return (.success, data)
    }

    /// Where one input's result goes: its own file in `--output-dir`, the `--output` file,
    /// or nil for standard output (or the clipboard).
    func destination(for input: BatchInput) -> String? {
        if let folder = options.outputDirectory {
            let name = options.batch.keepsExtension ? input.relativePath : (input.relativePath as NSString).deletingPathExtension
            let base = input.path == "-" ? "stdin" : name
            // Only a path below the folder is kept; one that is absolute or climbs out with
            // `..` is reduced to its file name, so nothing is written outside DIR.
            let parts = base.split(separator: "/")
            let staysInside = !base.hasPrefix("/") && !parts.contains("..")
            let relative = staysInside ? parts.filter { $0 != "." }.joined(separator: "/") : (base as NSString).lastPathComponent
            return URL(fileURLWithPath: folder).appendingPathComponent(relative)
                .appendingPathExtension(options.export.format.fileExtension).path
        }
        if let output = options.output, output != "-" { return output }
        return nil
    }

    /// The bytes for one poem as the command line asks: a `mailto:` URL, or the export in
    /// `--format`. With several images on one stream, JSON is written as JSON Lines (the
    /// headers and rules between poems are added as they are delivered, `StreamFraming`).
    private func render(_ poem: ScannedPoem, displayName: String, several: Bool) throws(SnapPoemError) -> Data {
        let request = options.export
        if request.mailto {
            let url = MailtoLink.url(for: poem, to: request.to, subject: request.subject)
            if url.utf8.count > Self.longestSafeURL {
                console.writeError(
                    "snap-poem: warning: \(displayName): the mailto: URL is \(url.utf8.count) characters long; some programs cut URLs "
                        + "beyond about \(Self.longestSafeURL), so '--format eml' is the safer way to send a long poem\n")
            }
            return Data((url + "\n").utf8)
        }
        let oneStream = (several && options.outputDirectory == nil) || request.collectsJSONLines
        var exportOptions = ExportOptions(
            languageTag: LanguageTag.forTesseract(options.scan.engine.languages), jsonLayout: oneStream ? .jsonLines : .pretty)
        exportOptions.htmlSideBySide = request.sideBySide
        if request.format == .eml {
            exportOptions.email = EmailDraftOptions(
                to: request.to, subject: request.subject, date: Date(), timeZone: .current,
                messageID: "\(UUID().uuidString.lowercased())@snap-poem.invalid")
        }
        return try poem.exported(as: request.format, options: exportOptions)
    }

    func report(_ error: SnapPoemError) {
        console.writeError("snap-poem: error: \(error.description)\n")
    }
}

/// Counts finished images for the batch progress line.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}

/// Receives results as workers finish them and delivers them in input order, one at a time:
/// diagnostics and output of image 3 never come before those of image 2.
///
/// Delivering blocks (a file written and flushed with `fsync`, a PNG encoded, standard
/// output full), so the actor runs on a serial Dispatch queue of its own rather than on
/// Swift's cooperative pool, whose few threads the workers need.
actor Delivery {
    private let executor = QueueExecutor(label: "snap-poem.delivery")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let run: BatchRun
    private let inputs: [BatchInput]
    private var waiting: [Int: BatchResult] = [:]
    private var nextIndex = 0
    private var delivered = false
    private var collected = Data()
    /// The outcome of each delivered input (and of each failed write).
    private(set) var outcomes: [ExitCode] = []

    init(run: BatchRun, inputs: [BatchInput]) {
        self.run = run
        self.inputs = inputs
    }

    /// What `--copy` puts on the clipboard, once everything was delivered; nil if nothing was.
    var clipboardText: Data? { delivered ? collected : nil }

    func receive(_ result: BatchResult, progress: ProgressLine?) {
        waiting[result.index] = result
        while let ready = waiting.removeValue(forKey: nextIndex) {
            nextIndex += 1
            progress?.clear()
            deliver(ready)
        }
    }

    private func deliver(_ result: BatchResult) {
        let (outcome, data) = run.finish(result, several: inputs.count > 1)
        outcomes.append(outcome)
        guard let data else { return }
        delivered = true
        if let path = run.destination(for: result.input) {
            do throws(SnapPoemError) {
                if run.options.outputDirectory != nil {
                    try OutputFile.createParentFolders(of: path)
                }
                try OutputFile.write(data, to: path, overwrite: run.options.force, protecting: inputs.map(\.path))
            } catch {
                run.report(error)
                outcomes.append(.outputFailed)
            }
        } else if run.options.export.copy {
            collected.append(data)
        } else {
            run.console.writeOutput(data)
        }
    }
}

extension SnapPoemError {
    /// Errors that come from a bad option value rather than the environment.
    var isUsageProblem: Bool {
        switch self {
        case .invalidLanguage, .invalidOption: true
        default: false
        }
    }
}
