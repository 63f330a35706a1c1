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
        _ arguments: [String], console: Console, environment: [String: String] = ProcessInfo.processInfo.environment,
        unfinished: UnfinishedFiles = UnfinishedFiles()
    ) async -> Int32 {
        let code: Int32
        switch plan(arguments, console: console) {
        case .answered(let answered):
            code = answered
        case .serve(let serveArguments):
            code = await ServeCommand.run(serveArguments, console: console).rawValue
        case .scan(let options):
            code = await ScanCommand(options: options, console: console, environment: environment, unfinished: unfinished).run().rawValue
        }
        return exitCode(code, console: console)
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
            DiagnosticsEngine(console: console).usageError(error.message)
            return .answered(ExitCode.usage.rawValue)
        }
        if options.showHelp {
            console.writeOutput(Data(HelpText.render().utf8))
            return .answered(ExitCode.success.rawValue)
        }
        if options.showVersion {
            var text = "snap-poem \(SnapPoem.version) (Tesseract \(Versions.tesseract), Leptonica \(Versions.leptonica))\n"
            if options.showsOverrides { text += ProcessOverrides.report }
            console.writeOutput(Data(text.utf8))
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
            console.writeError("Languages in \(OneLine.escaping(location.directory.path)):\n")
            console.writeOutput(Data(location.availableLanguages.map { $0 + "\n" }.joined().utf8))
            return .success
        } catch {
            let diagnostics = DiagnosticsEngine(console: console)
            diagnostics.emit(Diagnostic(.error, error.description, category: .engine, setting: error.setting))
            return diagnostics.exitCode
        }
    }
}
