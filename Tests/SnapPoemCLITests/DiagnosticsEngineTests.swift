import Foundation
import SnapPoem
import Synchronization
import Testing

@testable import SnapPoemCLI

@Suite("One diagnostic printer: prefix, escaping, -q and -v, counts, and the exit code from the counts")
struct DiagnosticsEngineTests {
    static func capture(terminal: Bool = false) -> (Console, @Sendable () -> String, @Sendable () -> String) {
        let error = Mutex(""), output = Mutex(Data())
        let console = Console(
            writeOutput: { data in output.withLock { $0.append(data) } }, writeError: { text in error.withLock { $0 += text } },
            errorIsTerminal: terminal)
        return (console, { error.withLock { $0 } }, { String(decoding: output.withLock { $0 }, as: UTF8.self) })
    }

    @Test("Each severity gets its prefix; text from outside is escaped, subject, message and notes alike")
    func prefixesAndEscaping() {
        let (console, error, _) = Self.capture()
        let diagnostics = DiagnosticsEngine(console: console)
        diagnostics.emit(Diagnostic(.error, "not an image", subject: "po\nem\u{1B}[2J.png", category: .input))
        diagnostics.emit(Diagnostic(.warning, "'Le\u{202E}nore' not found"))
        diagnostics.emit(Diagnostic(.note, "shard 2/3 has no images"))
        diagnostics.emit(Diagnostic(.report, "1 replacement", subject: "a.png", notes: ["line 1: 'x\ny' → 'z'"]))
        diagnostics.emit(Diagnostic(.remark, "skipped (done before)", subject: "a.png"))
        #expect(
            error() == """
                snap-poem: error: po\\nem\\u{1B}[2J.png: not an image
                snap-poem: warning: 'Le\\u{202E}nore' not found
                snap-poem: note: shard 2/3 has no images
                snap-poem: report: a.png: 1 replacement
                  line 1: 'x\\ny' → 'z'

                """)
    }

    @Test("A diagnostic about a setting ends with the setting's flag; the library's message names none")
    func settingFlags() {
        let (console, error, _) = Self.capture()
        let diagnostics = DiagnosticsEngine(console: console)
        let missing = SnapPoemError.tessdataNotFound(searched: ["/nowhere"])
        #expect(!missing.description.contains("--"))
        diagnostics.emit(Diagnostic(missing))
        diagnostics.emit(Diagnostic(.error, "out of memory; raise the worker memory limit", subject: "a.png", setting: .workerMemory))
        #expect(
            error() == """
                snap-poem: error: no tessdata folder found; looked in: /nowhere; name one, or set TESSDATA_PREFIX (--tessdata DIR)
                snap-poem: error: a.png: out of memory; raise the worker memory limit (--worker-memory)

                """)
        #expect(Setting.allCases.allSatisfy { $0.flag.hasPrefix("--") })
    }

    @Test("-q keeps errors and reports; -v adds remarks; everything is counted either way")
    func verbosity() {
        let (quietConsole, quiet, _) = Self.capture()
        let silent = DiagnosticsEngine(console: quietConsole, verbosity: .quiet)
        for severity in Diagnostic.Severity.allCases { silent.emit(Diagnostic(severity, "\(severity)")) }
        #expect(quiet() == "snap-poem: error: error\nsnap-poem: report: report\n")
        #expect(silent.count(of: .warning) == 1)
        let (verboseConsole, verbose, _) = Self.capture()
        let chatty = DiagnosticsEngine(console: verboseConsole, verbosity: .verbose)
        chatty.emit(Diagnostic(.remark, "a.png: skipped"))
        #expect(verbose() == "snap-poem: a.png: skipped\n")
    }

    @Test(
        "The exit code follows from the categories counted, the first of 130, 73, 71, 69, 64, 1, 124",
        arguments: [
            ([], ExitCode.success), ([Diagnostic.Category.timeLimit], .timedOut), ([.timeLimit, .input], .inputFailed),
            ([.input, .output], .outputFailed), ([.output, .cancelled], .interrupted), ([.clipboard, .input], .clipboardUnavailable),
            ([.engine, .input, .timeLimit], .ocrUnavailable), ([.usage], .usage),
        ] as [([Diagnostic.Category], ExitCode)])
    func exitCode(categories: [Diagnostic.Category], code: ExitCode) {
        let (console, _, _) = Self.capture()
        let diagnostics = DiagnosticsEngine(console: console)
        for category in categories { diagnostics.emit(Diagnostic(.warning, "x", category: category)) }
        #expect(diagnostics.exitCode == code)
        let counted = DiagnosticsEngine(console: console)
        for category in categories { counted.count(category) }
        #expect(counted.exitCode == code, "an outcome counted without a line weighs the same")
    }

    @Test("--progress json: diagnostics are events with their severity; a usage error stays a plain block")
    func jsonEvents() throws {
        let (console, error, _) = Self.capture()
        let diagnostics = DiagnosticsEngine(console: console, progress: .json)
        diagnostics.emit(Diagnostic(.warning, "no text was found in the image", subject: "a\u{1B}.png"))
        let event = try JSONSerialization.jsonObject(with: Data(error().utf8)) as? [String: Any]
        #expect(event?["event"] as? String == "diagnostic")
        #expect(event?["severity"] as? String == "warning")
        #expect(event?["message"] as? String == "snap-poem: warning: a\\u{1B}.png: no text was found in the image")
        diagnostics.usageError("Unknown option '--x'.")
        #expect(error().hasSuffix("snap-poem: error: Unknown option '--x'.\n\(HelpText.usage)\n  See 'snap-poem --help'.\n"))
        #expect(diagnostics.exitCode == .usage)
    }

    @Test("Results for standard output are escaped line by line")
    func results() {
        let (console, _, output) = Self.capture()
        DiagnosticsEngine(console: console).results(["failed: a.png: bad\u{1B}[31m\nsnap-poem: forged"])
        #expect(output() == "failed: a.png: bad\\u{1B}[31m\\nsnap-poem: forged\n")
    }
}
