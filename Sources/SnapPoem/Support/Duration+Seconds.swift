import Foundation

/// Durations as the package reads and writes them: whole milliseconds for manifests and
/// logs, seconds as a number for rates, and seconds as text in options and messages. One
/// place, so that every front end parses `--timeout 2.5` and shows `2.5 s` alike.
extension Duration {
    /// The duration in whole milliseconds, rounded down.
    package var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000)
    }

    /// The duration in seconds, as a number.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Seconds as a person gives them (`30`, `2.5`, `0.001`): a finite number greater than 0,
    /// at least `minimum` when one is given, and at most `maximum`, kept to the millisecond.
    /// Nil for anything else.
    package init?(seconds text: String, atLeast minimum: Double? = nil, atMost maximum: Double) {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds >= minimum ?? 0, seconds <= maximum
        else { return nil }
        self = .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The duration in seconds for messages, to the millisecond and without trailing zeros:
    /// `120`, `2.5`, `0.001`.
    package var secondsText: String {
        let milliseconds = wholeMilliseconds
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
