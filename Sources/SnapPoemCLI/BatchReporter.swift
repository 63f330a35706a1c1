import Foundation
import SnapPoem
import Synchronization

/// What a batch says on standard error while it runs, by `--progress` and `-q`/`-v`:
///
/// - diagnostics (errors always; warnings unless `-q`), one line each;
/// - on a terminal, a progress bar on the last line that stays visible (redrawn after each
///   diagnostic and every second): `[████░░░░] 12/29 images  1.8/s  0:09 left  2 failed`;
/// - with `-v`, a line for each image as it finishes and for each skipped one;
/// - with `--progress json`, every line is a JSON event instead (`start`, `image`,
///   `diagnostic`, `summary`), for programs that follow a batch;
/// - the summary line at the end (unless `-q`).
final class BatchReporter: Sendable {
    private enum Mode {
        case plain
        case bar
        case json
    }

    private struct State {
        var total = 0
        /// Inputs that are read in this run (not skipped).
        var toRead = 0
        var finished = 0
        var failed = 0
        var started: ContinuousClock.Instant?
        var barShown = false
    }

    private let console: Console
    private let mode: Mode
    private let verbosity: BatchOptions.Verbosity
    private let state = Mutex(State())

    init(console: Console, options: BatchOptions) {
        self.console = console
        self.verbosity = options.verbosity
        switch options.progress {
        case .json: mode = .json
        case .none: mode = .plain
        case .auto: mode = console.errorIsTerminal && options.verbosity != .quiet ? .bar : .plain
        }
    }

    /// The batch begins: `total` inputs, of which `toRead` will be read.
    func start(total: Int, toRead: Int, skipped: Int, workers: Int) {
        state.withLock {
            $0.total = total
            $0.toRead = toRead
            $0.started = .now
        }
        if mode == .json {
            event(["event": "start", "total": total, "toRead": toRead, "skipped": skipped, "workers": workers])
        }
        redraw()
    }

    /// An error line (`snap-poem: error: …`), always shown.
    func error(_ line: String) {
        emit(line, severity: "error")
    }

    /// A diagnostic line as a single run would print it: errors always, other lines unless `-q`.
    func diagnostic(_ line: String) {
        let severity =
            line.hasPrefix("snap-poem: error: ") ? "error" : line.hasPrefix("snap-poem: warning: ") ? "warning" : "info"
        if severity != "error", verbosity == .quiet { return }
        emit(line, severity: severity)
    }

    /// The `--report` lines: asked for, so shown even with `-q`.
    func report(_ text: String) {
        emit(text, severity: "report")
    }

    /// A line only `-v` shows.
    func detail(_ line: String) {
        guard verbosity == .verbose else { return }
        emit(line, severity: "info")
    }

    /// One input was read (or failed, or was cancelled) in this run.
    func finished(_ input: BatchInput, status: ManifestEntry.Status, note: String?) {
        let snapshot = state.withLock { state -> State in
            state.finished += 1
            if status == .failed { state.failed += 1 }
            return state
        }
        if mode == .json {
            var fields: [String: any Sendable] = [
                "event": "image", "input": input.relativePath, "path": input.path, "status": status.rawValue,
                "done": snapshot.finished, "toRead": snapshot.toRead, "total": snapshot.total, "failed": snapshot.failed,
            ]
            let figures = Self.figures(snapshot)
            fields["elapsedSeconds"] = figures.elapsed
            fields["imagesPerSecond"] = figures.rate
            fields["secondsLeft"] = figures.left
            event(fields)
        } else {
            if let note { detail("snap-poem: \(input.path): \(note)\n") }
            redraw()
        }
    }

    /// Redraws the bar (called every second, so the time keeps moving).
    func tick() {
        redraw()
    }

    /// The closing summary and the bar's last state.
    func end(summary: String, fields: [String: any Sendable]) {
        if mode == .json {
            var fields = fields
            fields["event"] = "summary"
            event(fields)
            return
        }
        clearBar()
        if verbosity != .quiet { console.writeError(summary) }
    }

    // MARK: - Drawing

    private func emit(_ line: String, severity: String) {
        if mode == .json {
            event(["event": "diagnostic", "severity": severity, "message": line.trimmingCharacters(in: .newlines)])
            return
        }
        clearBar()
        console.writeError(line.hasSuffix("\n") ? line : line + "\n")
        redraw()
    }

    private func clearBar() {
        guard mode == .bar else { return }
        let shown = state.withLock { state -> Bool in
            defer { state.barShown = false }
            return state.barShown
        }
        if shown { console.writeError("\r\u{1B}[K") }
    }

    private func redraw() {
        guard mode == .bar else { return }
        let snapshot = state.withLock { state -> State? in
            guard state.started != nil else { return nil }
            state.barShown = true
            return state
        }
        guard let snapshot else { return }
        console.writeError("\r" + Self.bar(snapshot) + "\u{1B}[K")
    }

    /// `[████████░░░░░░░░░░░░] 12/29 images  1.8/s  0:09 left  2 failed`.
    private static func bar(_ state: State) -> String {
        let width = 20
        let goal = max(state.toRead, 1)
        let filled = min(width, width * state.finished / goal)
        let figures = figures(state)
        var text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
        text += " \(state.finished)/\(state.toRead) images"
        if let rate = figures.rate { text += String(format: "  %.1f/s", rate) }
        if let left = figures.left { text += "  \(clockTime(left)) left" }
        if state.failed > 0 { text += "  \(state.failed) failed" }
        return text
    }

    private static func figures(_ state: State) -> (elapsed: Double, rate: Double?, left: Int?) {
        guard let started = state.started else { return (0, nil, nil) }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard state.finished > 0, seconds > 0 else { return (seconds, nil, nil) }
        let rate = Double(state.finished) / seconds
        let left = Int((Double(state.toRead - state.finished) / rate).rounded(.up))
        return ((seconds * 10).rounded() / 10, (rate * 100).rounded() / 100, left)
    }

    /// `0:09`, `12:34`, `1:02:03`.
    private static func clockTime(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    private func event(_ fields: [String: any Sendable]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        console.writeError(String(decoding: data, as: UTF8.self) + "\n")
    }
}
