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

    static func run(_ arguments: [String], console: Console) async -> Int32 {
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
        return await BatchRun(options: options, console: console).run().rawValue
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

    func run() async -> ExitCode {
        let scanner: PoemScanner
        do throws(SnapPoemError) {
            scanner = try await PoemScanner(configuration: options.scan)
        } catch {
            report(error)
            return error.isUsageProblem ? .usage : .ocrUnavailable
        }
        var outcomes: [ExitCode] = []
        for (index, input) in options.inputs.enumerated() {
            if Task.isCancelled {
                outcomes.append(.interrupted)
                break
            }
            outcomes.append(await process(input, with: scanner, isFirst: index == 0))
        }
        return Self.overall(outcomes)
    }

    /// The worst outcome decides the exit code.
    static func overall(_ outcomes: [ExitCode]) -> ExitCode {
        let severity: [ExitCode] = [.interrupted, .outputFailed, .inputFailed, .timedOut]
        return severity.first(where: outcomes.contains) ?? .success
    }

    private func process(_ input: String, with scanner: PoemScanner, isFirst: Bool) async -> ExitCode {
        let progress = console.errorIsTerminal ? ProgressLine(console: console, label: input) : nil
        var onProgress: (@Sendable (Int) -> Void)?
        if let progress { onProgress = { progress.update($0) } }
        let poem: ScannedPoem
        do throws(SnapPoemError) {
            poem = try await scanner.scan(fileAt: input, progress: onProgress)
            progress?.finish()
        } catch {
            progress?.finish()
            report(error)
            if case .cancelled = error { return .interrupted }
            return .inputFailed
        }
        let displayName = input == "-" ? "<stdin>" : input
        for note in poem.imageFacts.warnings + poem.preprocessingReport.notes {
            console.writeError("snap-poem: warning: \(displayName): \(note)\n")
        }
        if let path = options.savePreprocessed, let image = poem.preprocessedImage {
            do throws(SnapPoemError) {
                try OutputFile.write(image.pngData(), to: path, overwrite: options.force, protecting: options.inputs)
            } catch {
                report(error)
                return .outputFailed
            }
        }
        if !poem.page.hasText && !poem.page.timedOut {
            console.writeError("snap-poem: warning: \(displayName): no text was found in the image\n")
        }
        var text = poem.text
        if options.inputs.count > 1 {
            text = (isFirst ? "" : "\n") + "==> \(displayName) <==\n" + text
        }
        let data = Data(text.utf8)
        if let output = options.output, output != "-" {
            do throws(SnapPoemError) {
                try OutputFile.write(data, to: output, overwrite: options.force, protecting: options.inputs)
            } catch {
                report(error)
                return .outputFailed
            }
        } else {
            console.writeOutput(data)
        }
        if poem.page.timedOut {
            let seconds = options.scan.recognition.timeLimit.map { "\($0.components.seconds).\(String(format: "%03d", Int($0.components.attoseconds / 1_000_000_000_000_000)))" } ?? "?"
            console.writeError("snap-poem: warning: \(displayName): time limit of \(seconds) s reached; the text is partial\n")
            return .timedOut
        }
        return .success
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
