import Foundation
import SnapPoem
import Synchronization

/// Everything the command says on standard error, in one place, as swift-format's
/// `DiagnosticsEngine` does for its findings: each `Diagnostic` is given its prefix
/// (`snap-poem: error: `), escaped (`OneLine.escaping`: file names, OCR text and manifest
/// strings from outside cannot split a line, forge one, or send a terminal escape),
/// filtered by `-q` and `-v`, and counted by severity and category; the exit code follows
/// from the counts (`exitCode`).
///
/// It also owns what else appears on standard error, so that nothing interleaves: the
/// progress bar (`ProgressBar`, redrawn after each line and cleared before it), the usage
/// error block, the closing summary, and with `--progress json` the JSON events that stand
/// in for all of it (`start`, `image`, `diagnostic`, `summary`).
final class DiagnosticsEngine: Sendable {
    /// How progress is shown.
    enum Mode: Sendable, Equatable {
        /// Lines only.
        case plain
        /// A progress bar on the terminal's last line.
        case bar
        /// JSON events, one a line.
        case json
    }

    private struct State {
        var bar: ProgressBar
        var categories: [Diagnostic.Category: Int] = [:]
        var severities: [Diagnostic.Severity: Int] = [:]
        /// Whether this run reads one image (`readsOneImage()`).
        var oneImage = false
    }

    private let console: Console
    private let verbosity: BatchOptions.Verbosity
    let mode: Mode
    private let state: Mutex<State>

    /// An engine writing to `console`'s standard error.
    ///
    /// - Parameters:
    ///   - verbosity: `-q` shows errors and `--report` lines only; `-v` adds remarks.
    ///   - progress: `--progress`; a bar needs a terminal and is off with `-q`.
    init(console: Console, verbosity: BatchOptions.Verbosity = .normal, progress: BatchOptions.Progress = .auto) {
        self.console = console
        self.verbosity = verbosity
        switch progress {
        case .json: mode = .json
        case .none: mode = .plain
        case .auto: mode = console.errorIsTerminal && verbosity != .quiet ? .bar : .plain
        }
        state = Mutex(State(bar: ProgressBar()))
    }

    // MARK: - Diagnostics

    /// Marks the run as one image's: once it has reported an error, that error is its answer
    /// (`ThreadGuard.runHasReported(_:)`).
    func readsOneImage() {
        state.withLock { $0.oneImage = true }
    }

    /// Counts `diagnostic`, and shows it unless `-q` or the lack of `-v` hides it.
    func emit(_ diagnostic: Diagnostic) {
        state.withLock { state in
            state.severities[diagnostic.severity, default: 0] += 1
            if let category = diagnostic.category { state.categories[category, default: 0] += 1 }
            if state.oneImage, diagnostic.severity == .error {
                ThreadGuard.runHasReported(ExitCode.deciding(Set(state.categories.filter { $0.value > 0 }.keys)))
            }
            guard shows(diagnostic.severity) else { return }
            let lines = Self.lines(diagnostic)
            if mode == .json {
                event([
                    "event": "diagnostic", "severity": Self.eventSeverity(diagnostic.severity), "message": lines.joined(separator: "\n"),
                ])
            } else {
                write(lines.map { $0 + "\n" }.joined(), bar: &state.bar)
            }
        }
    }

    /// Counts and shows each of `diagnostics`, in order.
    func emit(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { emit(diagnostic) }
    }

    /// Counts an outcome that was said already or needs no line (an image cancelled).
    func count(_ category: Diagnostic.Category?) {
        guard let category else { return }
        state.withLock { $0.categories[category, default: 0] += 1 }
    }

    /// A command-line mistake, swift-argument-parser style: the message, the usage line and
    /// a pointer to the help; counted as `.usage`. Always plain lines, before any batch.
    func usageError(_ message: String, usage: String = HelpText.usage, help: String = "snap-poem --help") {
        state.withLock { state in
            state.categories[.usage, default: 0] += 1
            state.severities[.error, default: 0] += 1
            write("snap-poem: error: \(OneLine.escaping(message))\n\(usage)\n  See '\(help)'.\n", bar: &state.bar)
        }
    }

    /// A line of the command's own (`snap-poem: copied to the clipboard`), unless `-q`.
    func say(_ text: String) {
        guard verbosity != .quiet else { return }
        state.withLock { state in write("snap-poem: \(OneLine.escaping(text))\n", bar: &state.bar) }
    }

    /// Lines of results for standard output (`--check-manifests`), each escaped: they name
    /// files and quote manifests.
    func results(_ lines: [String]) {
        console.writeOutput(Data(lines.map { OneLine.escaping($0) + "\n" }.joined().utf8))
    }

    /// How many diagnostics of `severity` were emitted.
    func count(of severity: Diagnostic.Severity) -> Int {
        state.withLock { $0.severities[severity] ?? 0 }
    }

    /// The exit code the counts call for (`ExitCode.precedence`).
    var exitCode: ExitCode {
        ExitCode.deciding(Set(state.withLock { $0.categories.filter { $0.value > 0 }.keys }))
    }

    /// The lines of `diagnostic` as shown: prefix, escaped text and the flag of its setting
    /// (`(--worker-memory)`), then its notes indented.
    static func lines(_ diagnostic: Diagnostic) -> [String] {
        let prefix =
            switch diagnostic.severity {
            case .error: "snap-poem: error: "
            case .warning: "snap-poem: warning: "
            case .note: "snap-poem: note: "
            case .report: "snap-poem: report: "
            case .remark: "snap-poem: "
            }
        let flag = diagnostic.setting.map { " (\($0.flag))" } ?? ""
        return [prefix + OneLine.escaping(diagnostic.text) + flag] + diagnostic.notes.map { "  " + OneLine.escaping($0) }
    }

    private func shows(_ severity: Diagnostic.Severity) -> Bool {
        switch severity {
        case .error, .report: true
        case .warning, .note: verbosity != .quiet
        case .remark: verbosity == .verbose
        }
    }

    private static func eventSeverity(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .report: "report"
        case .note, .remark: "info"
        }
    }

    // MARK: - Progress

    /// A batch begins: `total` inputs, of which `toRead` will be read by `workers`.
    func startBatch(total: Int, toRead: Int, skipped: Int, workers: Int) {
        state.withLock { state in
            state.bar.startBatch(toRead: toRead)
            if mode == .json {
                event(["event": "start", "total": total, "toRead": toRead, "skipped": skipped, "workers": workers])
            }
            redraw(&state.bar)
        }
        totals.withLock { $0 = (total, toRead) }
    }

    private let totals = Mutex((total: 0, toRead: 0))

    /// One image is read in this process: its recognition progress is shown, labelled.
    func startImage(label: String) {
        state.withLock { state in
            state.bar.startImage(label: OneLine.escaping(label))
            redraw(&state.bar)
        }
    }

    /// The image being read in this process is `percent` % recognised.
    func imageProgress(_ percent: Int) {
        state.withLock { state in
            if state.bar.update(percent: percent) { redraw(&state.bar) }
        }
    }

    /// An image of the batch reached its end in this run (`status`); `note` is `-v`'s word
    /// on it (`ok, confidence 93, 1.4 s → OUT/a.txt`).
    func imageFinished(_ input: BatchInput, status: ManifestEntry.Status, note: String?) {
        let (total, toRead) = totals.withLock { $0 }
        state.withLock { state in
            let figures = state.bar.finish(failed: status == .failed)
            if mode == .json {
                var fields: [String: any Sendable] = [
                    "event": "image", "input": input.relativePath, "path": input.path, "status": status.rawValue,
                    "done": figures.done, "toRead": toRead, "total": total, "failed": figures.failed,
                ]
                fields["elapsedSeconds"] = figures.elapsed
                fields["imagesPerSecond"] = figures.rate
                fields["secondsLeft"] = figures.left
                event(fields)
                return
            }
            if let note, verbosity == .verbose {
                write("snap-poem: \(OneLine.escaping(input.path)): \(OneLine.escaping(note))\n", bar: &state.bar)
            } else {
                redraw(&state.bar)
            }
        }
    }

    /// Redraws the bar (every second, so that the time keeps moving).
    func tick() {
        state.withLock { redraw(&$0.bar) }
    }

    /// The batch's closing summary (`BatchSummary.line`, unless `-q`; an event with
    /// `--progress json`), the bar cleared first.
    func endBatch(_ summary: BatchSummary) {
        let exitCode = self.exitCode
        state.withLock { state in
            if mode == .json {
                var fields = summary.fields(exitCode: exitCode.rawValue)
                fields["event"] = "summary"
                event(fields)
                return
            }
            clear(&state.bar)
            state.bar.stop()
            if verbosity != .quiet { console.writeError(summary.line) }
        }
    }

    /// Clears the bar and stops drawing it.
    func finishProgress() {
        state.withLock { state in
            clear(&state.bar)
            state.bar.stop()
        }
    }

    // MARK: - Writing (under the lock)

    private func write(_ text: String, bar: inout ProgressBar) {
        clear(&bar)
        console.writeError(text)
        redraw(&bar)
    }

    private func clear(_ bar: inout ProgressBar) {
        guard mode == .bar, bar.shown else { return }
        bar.shown = false
        console.writeError("\r\u{1B}[K")
    }

    private func redraw(_ bar: inout ProgressBar) {
        guard mode == .bar, let text = bar.text() else { return }
        bar.shown = true
        console.writeError("\r" + text + "\u{1B}[K")
    }

    private func event(_ fields: [String: any Sendable]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        console.writeError(String(decoding: data, as: UTF8.self) + "\n")
    }
}

/// The closing line: `snap-poem: 29 images: 11 written, 16 skipped (done before), 2 failed, 0 cancelled`.
struct BatchSummary: Sendable {
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
