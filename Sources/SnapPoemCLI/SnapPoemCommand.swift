import Foundation
import SnapPoem

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
        let options: CommandOptions
        do {
            options = try CommandOptions(try ParsedArguments.parse(arguments))
        } catch {
            console.writeError("snap-poem: error: \(error.message)\n\(HelpText.usage)\n  See 'snap-poem --help'.\n")
            return ExitCode.usage.rawValue
        }
        if options.showHelp {
            console.writeOutput(Data(HelpText.render().utf8))
            return ExitCode.success.rawValue
        }
        if options.showVersion {
            console.writeOutput(Data("snap-poem \(Versions.snapPoem) (Tesseract \(Versions.tesseract), Leptonica \(Versions.leptonica))\n".utf8))
            return ExitCode.success.rawValue
        }
        if options.listLanguages {
            return listLanguages(options, console: console).rawValue
        }
        return await BatchRun(options: options, console: console, environment: environment).run().rawValue
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

/// One invocation's work over its inputs: every input is tried, failures are reported as they
/// happen, and the exit code is decided at the end.
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
        let scanner: PoemScanner
        do throws(SnapPoemError) {
            scanner = try await PoemScanner(configuration: options.scan)
        } catch {
            report(error)
            return error.isUsageProblem ? .usage : .ocrUnavailable
        }
        var outcomes: [ExitCode] = []
        var clipboardText = Data()
        var delivered = false
        for input in options.inputs {
            if Task.isCancelled {
                outcomes.append(.interrupted)
                break
            }
            let (outcome, result) = await process(input, with: scanner, isFirst: !delivered)
            outcomes.append(outcome)
            guard let result else { continue }
            delivered = true
            if let output = options.output, output != "-" {
                do throws(SnapPoemError) {
                    try OutputFile.write(result, to: output, overwrite: options.force, protecting: options.inputs)
                } catch {
                    report(error)
                    outcomes.append(.outputFailed)
                }
            } else if clipboard != nil {
                clipboardText.append(result)
            } else {
                console.writeOutput(result)
            }
        }
        if let clipboard, delivered {
            do throws(Clipboard.Failure) {
                try clipboard.copy(clipboardText)
                if console.errorIsTerminal { console.writeError("snap-poem: copied to the clipboard\n") }
            } catch {
                console.writeError("snap-poem: error: \(error.message)\n")
                outcomes.append(.clipboardUnavailable)
            }
        }
        return Self.overall(outcomes)
    }

    /// The longest `mailto:` URL that browsers and mail clients are known to pass on whole.
    static let longestSafeURL = 2000

    /// The worst outcome decides the exit code.
    static func overall(_ outcomes: [ExitCode]) -> ExitCode {
        let severity: [ExitCode] = [.interrupted, .outputFailed, .clipboardUnavailable, .inputFailed, .timedOut]
        return severity.first(where: outcomes.contains) ?? .success
    }

    /// Reads one image and renders its export; the caller delivers the bytes (nil when the
    /// image failed).
    private func process(_ input: String, with scanner: PoemScanner, isFirst: Bool) async -> (ExitCode, Data?) {
        let progress = console.errorIsTerminal ? ProgressLine(console: console, label: input) : nil
        var onProgress: (@Sendable (Int) -> Void)?
        if let progress {
            progress.update(0)  // at once: decoding and layout analysis report nothing
            onProgress = { progress.update($0) }
        }
        let poem: ScannedPoem
        do throws(SnapPoemError) {
            poem = try await scanner.scan(fileAt: input, progress: onProgress)
            progress?.finish()
        } catch {
            progress?.finish()
            report(error)
            if case .cancelled = error { return (.interrupted, nil) }
            return (.inputFailed, nil)
        }
        let displayName = input == "-" ? "<stdin>" : input
        if !poem.page.hasText && !poem.page.timedOut {
            console.writeError("snap-poem: warning: \(displayName): no text was found in the image\n")
        }
        let data: Data
        do throws(SnapPoemError) {
            data = try render(poem, displayName: displayName, isFirst: isFirst)
        } catch {
            report(error)
            return (.outputFailed, nil)
        }
        if poem.page.timedOut {
            let seconds = options.scan.recognition.timeLimit.map { "\($0.components.seconds).\(String(format: "%03d", Int($0.components.attoseconds / 1_000_000_000_000_000)))" } ?? "?"
            console.writeError("snap-poem: warning: \(displayName): time limit of \(seconds) s reached; the text is partial\n")
            return (.timedOut, data)
        }
        return (.success, data)
    }

    /// The bytes for one poem as the command line asks: a `mailto:` URL, or the export in
    /// `--format`. With several images, text gets `==> name <==` headers, Markdown documents
    /// are separated by a rule, and JSON is written as JSON Lines (one document per line).
    private func render(_ poem: ScannedPoem, displayName: String, isFirst: Bool) throws(SnapPoemError) -> Data {
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
        let several = options.inputs.count > 1
        var exportOptions = ExportOptions(
            languageTag: LanguageTag.forTesseract(options.scan.engine.languages), jsonLayout: several ? .jsonLines : .pretty)
        if request.format == .eml {
            exportOptions.email = EmailDraftOptions(
                to: request.to, subject: request.subject, date: Date(), timeZone: .current,
                messageID: "\(UUID().uuidString.lowercased())@snap-poem.invalid")
        }
        let data = try poem.exported(as: request.format, options: exportOptions)
        guard several else { return data }
        switch request.format {
        case .text: return Data(((isFirst ? "" : "\n") + "==> \(displayName) <==\n").utf8) + data
        case .markdown where !isFirst: return Data("\n---\n\n".utf8) + data
        default: return data
        }
    }

    private func report(_ error: SnapPoemError) {
        console.writeError("snap-poem: error: \(error.description)\n")
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
