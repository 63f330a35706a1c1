import Foundation
import SnapPoemTestSupport
import Synchronization
import Testing

/// `snap-poem serve` run as a real process on 127.0.0.1 and a port the system chooses.
/// `ServerProcess.with` always stops it, whatever the test does.
final class ServerProcess: Sendable {
    private let process: Process
    /// The port it listens on.
    let port: UInt16
    private let errorText: TextBuffer

    /// The executable under test (`TestedExecutable`: the development build, or the shipped one).
    static var executable: URL { TestedExecutable.url }

    private init(process: Process, port: UInt16, errorText: TextBuffer) {
        self.process = process
        self.port = port
        self.errorText = errorText
    }

    /// What the server wrote on standard error so far (its log).
    var log: String { errorText.text }

    /// Waits until the log satisfies `condition` (a request's line is written after its
    /// answer was sent, so a client can have the answer before the line is there), or until
    /// `timeout`, and returns the log then. The wait ends with the event, not after a fixed
    /// delay that a loaded machine may outlast; the caller then checks the log as before.
    @discardableResult
    func waitForLog(timeout: Duration = .seconds(120), until condition: (String) -> Bool) async -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !condition(log), clock.now < deadline, !errorText.ended {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return log
    }

    /// The process id, for signals.
    var pid: Int32 { process.processIdentifier }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// The server's resident memory now and at its peak (VmRSS, VmHWM), in bytes.
    var memory: (resident: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// Stops reading the server's standard error (as a paused pager would): once the pipe is
    /// full, its writes would block.
    func pauseLog() { errorText.paused.withLock { $0 = true } }

    /// Reads the server's standard error again.
    func resumeLog() { errorText.paused.withLock { $0 = false } }

    /// Starts `snap-poem serve --port 0 ARGUMENTS…` (with `--timeout 600`, 1800 under a
    /// sanitizer, unless ARGUMENTS set one) and waits until it listens.
    static func start(_ arguments: [String]) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = executable
        // A machine loaded by other tests must not turn a slow reading into a 504.
        let timeLimit = arguments.contains("--timeout") ? [] : ["--timeout", "\(600 * TestSanitizer.slowdown)"]
        process.arguments = ["serve", "--port", "0"] + timeLimit + arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let errorText = TextBuffer()
        let reader = errorPipe.fileHandleForReading
        try process.run()
        let collector = errorText
        Thread.detachNewThread {
            while true {
                while collector.paused.withLock({ $0 }) { usleep(10_000) }
                let chunk = reader.availableData
                if chunk.isEmpty {
                    collector.end()
                    return
                }
                collector.append(String(decoding: chunk, as: UTF8.self))
            }
        }
        func listeningPort() -> UInt16? {
            let text = errorText.text
            guard let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
                return nil
            }
            return text[range].split(separator: ":").last.map { $0.dropLast() }.flatMap { UInt16($0) }
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: TestSanitizer.scaled(.seconds(60)))
        // The log is looked at once more after the deadline: on a loaded machine the other
        // tests' work can keep this task from running for a long while, during which the
        // server may well have started.
        while clock.now < deadline, process.isRunning, listeningPort() == nil {
            try await Task.sleep(for: .milliseconds(50))
        }
        if let port = listeningPort() {
            return ServerProcess(process: process, port: port, errorText: errorText)
        }
        if process.isRunning { process.terminate() }
        throw ServerStartFailure(log: errorText.text)
    }

    struct ServerStartFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "snap-poem serve did not start listening: \(log)" }
    }

    /// Sends `signal` and waits for the process to end (killing it after `timeout`).
    /// Returns its exit status, or nil if it had to be killed.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(60)) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        return await waitForExit(timeout: timeout)
    }

    /// Waits for the process to end by itself (killing it after `timeout`). Returns its exit
    /// status, or nil if it had to be killed.
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while process.isRunning, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        // The reader takes the last of standard error: until the end of the pipe (the server's
        // children, if any, could hold it open: a few seconds at most).
        let drained = clock.now.advanced(by: .seconds(10))
        while !errorText.ended, clock.now < drained {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    /// Runs `body` with a server started with `arguments`, and stops the server afterwards
    /// whatever happens.
    static func with<T: Sendable>(
        _ arguments: [String], _ body: (ServerProcess) async throws -> T
    ) async throws -> T {
        let server = try await start(arguments)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop(signal: SIGKILL)
            throw error
        }
    }
}

/// Text collected from another thread.
final class TextBuffer: Sendable {
    private let storage = Mutex("")
    private let finished = Atomic<Bool>(false)
    /// Whether the reader should stop reading for now.
    let paused = Mutex(false)

    var text: String { storage.withLock { $0 } }

    /// Whether the writer closed its end: nothing more will come.
    var ended: Bool { finished.load(ordering: .acquiring) }

    func append(_ more: String) {
        storage.withLock { $0 += more }
    }

    func end() { finished.store(true, ordering: .releasing) }
}
