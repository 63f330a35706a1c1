import SnapPoem

/// The exit codes of `snap-poem`, documented in the README and in `--help`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Every input was read and its output written.
    case success = 0
    /// At least one input failed (missing, unreadable, not an image, too large, recognition
    /// error); the others were still processed.
    case inputFailed = 1
    /// The command line is wrong (unknown option, missing or bad value). Nothing was read.
    case usage = 64
    /// Tesseract cannot run: no tessdata folder, a language without data, an unknown
    /// Tesseract variable.
    case ocrUnavailable = 69
    /// `--copy` found no clipboard tool (`wl-copy`, `xclip`, `xsel`) or no display to copy
    /// to, or the tool failed. Checked before any image is read when possible.
    case clipboardUnavailable = 71
    /// An output could not be written (exists without `--force`, permission, disk full).
    case outputFailed = 73
    /// Standard output or standard error could not be written (disk full, closed, a pipe
    /// whose reader has gone); the error is reported on standard error when that still works.
    case streamFailed = 74
    /// The time limit stopped recognition; the partial text was still written.
    case timedOut = 124
    /// Interrupted (Ctrl-C); no output was left half-written.
    case interrupted = 130

    /// One line for the help text.
    var meaning: String {
        switch self {
        case .success: "success"
        case .inputFailed: "an input could not be read or recognised (the others were still processed)"
        case .usage: "usage error: unknown option, missing or bad value"
        case .ocrUnavailable: "Tesseract cannot run: tessdata or a language is missing, or a bad -c variable"
        case .clipboardUnavailable: "--copy: no clipboard tool (wl-copy, xclip, xsel) or display, or the tool failed"
        case .outputFailed: "an output could not be written (exists without --force, permission, disk)"
        case .streamFailed: "standard output or standard error could not be written (disk full, closed, broken pipe)"
        case .timedOut: "the time limit stopped recognition; partial text was written"
        case .interrupted: "interrupted; nothing was left half-written"
        }
    }
}

extension ExitCode {
    /// The order in which outcomes decide a run's exit code when several happened: the first
    /// of these that happened is it (README, "Exit codes").
    static let precedence: [(Diagnostic.Category, ExitCode)] = [
        (.cancelled, .interrupted), (.output, .outputFailed), (.clipboard, .clipboardUnavailable), (.engine, .ocrUnavailable),
        (.usage, .usage), (.input, .inputFailed), (.timeLimit, .timedOut),
    ]

    /// The exit code for a run in which these categories of diagnostic happened.
    static func deciding(_ categories: Set<Diagnostic.Category>) -> ExitCode {
        precedence.first { categories.contains($0.0) }?.1 ?? .success
    }
}

extension Diagnostic.Category {
    /// `--copy` found no clipboard tool or display, or the tool failed (exit 71).
    static let clipboard = Diagnostic.Category(rawValue: "clipboard")
}
