import Foundation
import SnapPoem
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
    /// The writes that failed, for a console over real descriptors; nil for one that cannot
    /// fail (a test's capture).
    var failures: StreamFailures? = nil
    /// Whether standard input was closed when the process started (`<&-`), so that `-`
    /// cannot be read.
    var inputIsClosed = false

    /// The process's standard output and standard error.
    static let standard = Console.writing(
        output: STDOUT_FILENO, error: STDERR_FILENO, streams: ProcessStreams.atStart,
        errorIsTerminal: isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb")

    /// A console over two file descriptors, writing with `write(2)` (never Foundation's
    /// `FileHandle.write`, which traps on any error). A failed write never traps: it is
    /// recorded in `failures`, reported once on standard error when that still works, and
    /// later writes to the same stream are dropped; the command then exits with 74.
    ///
    /// - Parameter streams: which of the process's standard descriptors were closed at start.
    static func writing(output: Int32, error: Int32, streams: ProcessStreams = .allOpen, errorIsTerminal: Bool) -> Console {
        let failures = StreamFailures()
        if streams.outputWasClosed { failures.record(.output, reason: "standard output is closed") }
        if streams.errorWasClosed { failures.record(.error, reason: "standard error is closed") }
        let writeError: @Sendable (String) -> Void = { text in
            guard !failures.hasFailed(.error) else { return }
            if let reason = DescriptorWriter.write(Data(text.utf8), to: error) {
                failures.record(.error, reason: reason)
            }
        }
        let writeOutput: @Sendable (Data) -> Void = { data in
            guard !failures.hasFailed(.output) else {
                failures.reportOutputFailureOnce(through: writeError)
                return
            }
            if let reason = DescriptorWriter.write(data, to: output) {
                failures.record(.output, reason: reason)
                failures.reportOutputFailureOnce(through: writeError)
            }
        }
        return Console(
            writeOutput: writeOutput, writeError: writeError, errorIsTerminal: errorIsTerminal, failures: failures,
            inputIsClosed: streams.inputWasClosed)
    }
}

/// Failed writes to standard output and standard error: the first reason for each.
final class StreamFailures: Sendable {
    /// One of the two output streams.
    enum Stream: Sendable {
        case output, error
    }

    private struct State {
        var output: String?
        var error: String?
        var outputReported = false
    }
    private let state = Mutex(State())

    /// Records that writing to `stream` failed, keeping the first reason.
    func record(_ stream: Stream, reason: String) {
        state.withLock { state in
            switch stream {
            case .output: if state.output == nil { state.output = reason }
            case .error: if state.error == nil { state.error = reason }
            }
        }
    }

    /// Whether a write to `stream` failed.
    func hasFailed(_ stream: Stream) -> Bool {
        state.withLock { stream == .output ? $0.output != nil : $0.error != nil }
    }

    /// Whether any write failed.
    var any: Bool { state.withLock { $0.output != nil || $0.error != nil } }

    /// Says once, on standard error, why the results did not reach standard output.
    func reportOutputFailureOnce(through writeError: @Sendable (String) -> Void) {
        let reason = state.withLock { state -> String? in
            guard let reason = state.output, !state.outputReported else { return nil }
            state.outputReported = true
            return reason
        }
        if let reason {
            let diagnostic = Diagnostic(.error, "cannot write to standard output (\(reason)); the results were not delivered")
            writeError(DiagnosticsEngine.lines(diagnostic).joined(separator: "\n") + "\n")
        }
    }
}

/// Writes whole buffers to a file descriptor.
enum DescriptorWriter {
    /// Writes all of `data` to `descriptor`, retrying after interruptions and waiting (with
    /// `poll`) when a non-blocking descriptor is full. Returns why it failed, or nil.
    static func write(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { raw -> String? in
            guard let base = raw.baseAddress else { return nil }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, base + offset, raw.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN:
                    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, 1000)
                case EPIPE: return "the reader closed the pipe"
                case EBADF: return "the descriptor is closed"
                default: return String(cString: strerror(code)).lowercased()
                }
            }
            return nil
        }
    }
}

/// The state of the process's three standard descriptors when it started, and the set-up
/// that makes writing to them safe (`prepare`).
struct ProcessStreams: Sendable, Equatable {
    /// Standard input (0) was closed.
    var inputWasClosed = false
    /// Standard output (1) was closed.
    var outputWasClosed = false
    /// Standard error (2) was closed.
    var errorWasClosed = false

    /// All three open.
    static let allOpen = ProcessStreams()

    /// What `prepare()` found; all open until it runs.
    static var atStart: ProcessStreams { found.withLock { $0 } }
    private static let found = Mutex(ProcessStreams())

    /// Call once, first thing in `main`, before any file or thread is opened:
    ///
    /// - SIGPIPE is ignored, so that writing to a pipe whose reader has gone fails with
    ///   EPIPE (reported, exit 74) instead of killing the process silently.
    /// - A closed standard descriptor (`>&-`) is occupied by `/dev/null`, so that the next
    ///   file snap-poem opens (an output's temporary file) cannot become descriptor 1 and
    ///   receive the poem meant for standard output; writes to it are reported as failed.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var found = ProcessStreams()
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if placeholder >= 0, placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
            switch descriptor {
            case STDIN_FILENO: found.inputWasClosed = true
            case STDOUT_FILENO: found.outputWasClosed = true
            default: found.errorWasClosed = true
            }
        }
        Self.found.withLock { $0 = found }
    }
}
