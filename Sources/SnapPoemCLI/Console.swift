import Foundation
import Synchronization

/// Where the command writes: results to standard output, diagnostics to standard error.
/// Tests pass a capturing console; `standard` is the process's own streams.
struct Console: Sendable {
    /// Writes result bytes (the poem) to standard output.
    let writeOutput: @Sendable (Data) -> Void
    /// Writes a diagnostic line (or partial line, for progress) to standard error.
    let writeError: @Sendable (String) -> Void
    /// Whether standard error is a terminal, so that progress may be drawn on it.
    let errorIsTerminal: Bool

    /// The process's standard output and standard error.
    static let standard = Console(
        writeOutput: { FileHandle.standardOutput.write($0) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        errorIsTerminal: isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb")
}

/// Draws one progress line on a terminal (`\r`-rewritten), and clears it when done.
final class ProgressLine: Sendable {
    private let console: Console
    private let label: String
    private let lastDrawn = Mutex<Int>(-1)

    init(console: Console, label: String) {
        self.console = console
        self.label = label
    }

    /// Draws `percent` if it changed.
    func update(_ percent: Int) {
        let changed = lastDrawn.withLock { last -> Bool in
            guard percent != last else { return false }
            last = percent
            return true
        }
        guard changed else { return }
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.writeError("\r\(bar) \(String(percent).leftPadded(to: 3))%  \(label)\u{1B}[K")
    }

    /// Draws a batch's progress: `done` of `total` images.
    func update(_ done: Int, of total: Int) {
        update(total == 0 ? 100 : min(100, 100 * (done + 1) / total))
    }

    /// Erases the line so that a diagnostic can be written; the next update redraws it.
    func clear() {
        let drawn = lastDrawn.withLock { last -> Bool in
            defer { last = -1 }
            return last >= 0
        }
        if drawn { console.writeError("\r\u{1B}[K") }
    }

    /// Erases the line, leaving the terminal as it was.
    func finish() {
        let drawn = lastDrawn.withLock { $0 >= 0 }
        if drawn { console.writeError("\r\u{1B}[K") }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
