import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished child process printed, with its exit status.
public struct PipedResult: Sendable {
    /// The child's exit status (or the signal that ended it, as `Process` reports it).
    public let status: Int32
    /// Everything it wrote to standard output.
    public let output: Data
    /// Everything it wrote to standard error.
    public let error: Data
}

/// Runs a `Process` whose standard input, output and error are pipes, without the
/// deadlock a sequential reader invites: the input is fed and standard error drained on
/// threads of their own while this thread drains standard output. A child that fills one
/// pipe (64 KiB) while the reader waits on the other can therefore never hang a test.
public enum PipedProcess {
    /// Starts `process`, feeds it `input` (then end of file), collects both outputs to
    /// their ends, and waits for it to exit. `whileRunning` runs once the child started
    /// (a watchdog, for example) and the work item it returns is cancelled at the end.
    public static func run(_ process: Process, input: Data?, whileRunning: (() -> DispatchWorkItem?)? = nil) throws -> PipedResult {
        // A child that exits before reading its input must give the feeder EPIPE, not kill the tests.
        _ = signal(SIGPIPE, SIG_IGN)
        let output = Pipe(), error = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        let extra = whileRunning?()
        let finished = DispatchGroup()
        let feeder = standardInput.fileHandleForWriting
        finished.enter()
        DispatchQueue.global().async {
            // A child that exits without reading gives EPIPE; the test reads its status instead.
            if let input { try? feeder.write(contentsOf: input) }
            try? feeder.close()
            finished.leave()
        }
        let errorData = Collected()
        finished.enter()
        DispatchQueue.global().async {
            errorData.data = error.fileHandleForReading.readDataToEndOfFile()
            finished.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        finished.wait()
        process.waitUntilExit()
        extra?.cancel()
        return PipedResult(status: process.terminationStatus, output: outputData, error: errorData.data)
    }

    /// Bytes one thread writes and another reads after `DispatchGroup.wait`.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}
