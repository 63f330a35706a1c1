import Foundation

/// The one progress bar the command draws on a terminal's last line (`DiagnosticsEngine`
/// draws and clears it), in two shapes:
///
/// - a batch: `[████████░░░░░░░░░░░░] 12/29 images  1.8/s  0:09 left  2 failed` (images read
///   in this run, not those skipped);
/// - one image read in this process: `██████████░░░░░░░░░░░░░░░░░░░░  33%  Lenore.png`, from
///   Tesseract's recognition progress.
struct ProgressBar: Sendable {
    private enum Shape {
        case none
        case batch(toRead: Int, started: ContinuousClock.Instant)
        case image(label: String, percent: Int)
    }

    private var shape = Shape.none
    private var finished = 0
    private var failed = 0
    /// Whether it is on the terminal now.
    var shown = false

    /// Starts the batch shape.
    mutating func startBatch(toRead: Int) {
        shape = .batch(toRead: toRead, started: .now)
    }

    /// Starts the one-image shape.
    mutating func startImage(label: String) {
        shape = .image(label: label, percent: 0)
    }

    /// Stops drawing.
    mutating func stop() {
        shape = .none
    }

    /// The image's recognition reached `percent`; whether that changes what is drawn.
    mutating func update(percent: Int) -> Bool {
        guard case .image(let label, let drawn) = shape, percent != drawn else { return false }
        shape = .image(label: label, percent: percent)
        return true
    }

    /// What a finished image changes, and the figures of the batch so far.
    mutating func finish(failed isFailure: Bool) -> (done: Int, failed: Int, elapsed: Double, rate: Double?, left: Int?) {
        finished += 1
        if isFailure { failed += 1 }
        let figures = figures()
        return (finished, failed, figures.elapsed, figures.rate, figures.left)
    }

    /// The line to draw, or nil when nothing is drawn.
    func text() -> String? {
        switch shape {
        case .none:
            return nil
        case .image(let label, let percent):
            let width = 30
            let filled = width * percent / 100
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let shownPercent = String(percent)
            return "\(bar) \(String(repeating: " ", count: max(0, 3 - shownPercent.count)))\(shownPercent)%  \(label)"
        case .batch(let toRead, _):
            let width = 20
            let filled = min(width, width * finished / max(toRead, 1))
            let figures = figures()
            var text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
            text += " \(finished)/\(toRead) images"
            if let rate = figures.rate { text += String(format: "  %.1f/s", rate) }
            if let left = figures.left { text += "  \(Self.clockTime(left)) left" }
            if failed > 0 { text += "  \(failed) failed" }
            return text
        }
    }

    private func figures() -> (elapsed: Double, rate: Double?, left: Int?) {
        guard case .batch(let toRead, let started) = shape else { return (0, nil, nil) }
        let seconds = (ContinuousClock.now - started).inSeconds
        guard finished > 0, seconds > 0 else { return (seconds, nil, nil) }
        let rate = Double(finished) / seconds
        let left = Int((Double(toRead - finished) / rate).rounded(.up))
        return ((seconds * 10).rounded() / 10, (rate * 100).rounded() / 100, left)
    }

    /// `0:09`, `12:34`, `1:02:03`.
    private static func clockTime(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
