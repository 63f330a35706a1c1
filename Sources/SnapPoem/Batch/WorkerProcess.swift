import CProcessControl
import Foundation
import Synchronization

/// How to start a batch worker: the `snap-poem` executable in its worker mode, usually.
public struct WorkerCommand: Sendable, Equatable {
    /// The executable's path.
    public var executable: String
    /// The arguments after the program name.
    public var arguments: [String]
    /// The worker's whole environment.
    public var environment: [String: String]

    /// Creates a worker command. Unless they are set, the environment gets
    /// `OMP_THREAD_LIMIT=1` (each worker reads one image at a time; parallelism is across
    /// workers), `MALLOC_ARENA_MAX=2` (few threads allocate, and fewer arenas keep the address
    /// space, which the worker's memory limit counts, close to what is used) and
    /// `SWIFT_BACKTRACE=enable=no` (a crashing worker's last words are its own message, not
    /// a page of backtrace in every image's report).
    public init(executable: String, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.executable = executable
        self.arguments = arguments
        var environment = environment
        if environment["OMP_THREAD_LIMIT"] == nil { environment["OMP_THREAD_LIMIT"] = "1" }
        if environment["MALLOC_ARENA_MAX"] == nil { environment["MALLOC_ARENA_MAX"] = "2" }
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        self.environment = environment
    }
}

/// What a worker's reader thread reports to the supervisor.
enum WorkerEvent: Sendable {
    /// A protocol message, with what the worker printed since its previous message.
    case message(worker: Int, WorkerMessage, printed: [String])
    /// A line that is not a protocol message (its start), or nil for a line over
    /// `WorkerLine.maximumBytes`: the worker is broken.
    case garbled(worker: Int, line: String?)
    /// The worker's process ended (`status` as `waitpid` gives it), with what it printed
    /// since its last message.
    case exited(worker: Int, status: Int32, printed: [String])
}

/// One running worker process, from the supervisor's side: its protocol socket, a thread
/// that reads its messages and its printed output, and the means to stop it.
///
/// The process is started with `posix_spawn` (safe in a multi-threaded parent), gets the
/// protocol socket as descriptor 3 and one pipe as both standard output and error, and is
/// reaped by its reader thread, which is the only place `waitpid` is called for it; `kill`
/// checks under a lock that the process was not reaped yet, so a recycled process id is
/// never signalled.
final class WorkerProcess: Sendable {
    /// The supervisor's number for this worker.
    let id: Int
    /// The process id.
    let pid: pid_t
    private let channel: Locked<Int32>
    private let reaped = Locked(false)

    /// The most a worker may print for one image before the rest is dropped.
    static let printedLimit = 64 * 1024

    private init(id: Int, pid: pid_t, channel: Int32) {
        self.id = id
        self.pid = pid
        self.channel = Locked(channel)
    }

    /// Starts a worker and its reader thread, which calls `report` with what happens.
    ///
    /// - Throws: the `errno` text when the process cannot be started.
    static func start(id: Int, command: WorkerCommand, report: @escaping @Sendable (WorkerEvent) -> Void) throws(SnapPoemError)
        -> WorkerProcess
    {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw .engineInitializationFailed(reason: "cannot create a worker's socket: \(String(cString: strerror(errno)))")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard snap_poem_cloexec_pipe(&pipeEnds) == 0 else {
            let reason = String(cString: strerror(errno))
            close(sockets[0])
            close(sockets[1])
            throw .engineInitializationFailed(reason: "cannot create a worker's pipe: \(reason)")
        }
        var pid: pid_t = 0
        let arguments = [command.executable] + command.arguments
        let environment = command.environment.map { "\($0.key)=\($0.value)" }.sorted()
        let status = withCStringArray(arguments) { argv in
            withCStringArray(environment) { envp in
                snap_poem_spawn_worker(&pid, command.executable, argv, envp, sockets[1], pipeEnds[1])
            }
        }
        close(sockets[1])
        close(pipeEnds[1])
        guard status == 0 else {
            close(sockets[0])
            close(pipeEnds[0])
            throw .engineInitializationFailed(
                reason: "cannot start the batch worker \(command.executable): \(String(cString: strerror(status)))")
        }
        let worker = WorkerProcess(id: id, pid: pid, channel: sockets[0])
        let output = pipeEnds[0]
        let thread = Thread { worker.readUntilExit(output: output, report: report) }
        thread.name = "snap-poem.batch-worker-\(id)"
        thread.start()
        return worker
    }

    /// Sends one encoded message line; false when the worker is gone.
    func send(line: Data) -> Bool {
        channel.withLock { socket in socket >= 0 && WorkerLine.send(line, to: socket) }
    }

    /// Tells the worker there is no more work: it finishes and exits.
    func finishInput() {
        channel.withLock { socket in
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_WR)) }
        }
    }

    /// Ends the worker at once (SIGKILL), unless it was already reaped.
    func kill() {
        reaped.withLock { reaped in
            if !reaped { _ = Foundation.kill(pid, SIGKILL) }
        }
    }

    /// The reader thread: messages from the socket, printed text from the pipe, then the
    /// exit status.
    private func readUntilExit(output: Int32, report: @Sendable (WorkerEvent) -> Void) {
        let socket = channel.withLock { $0 }
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        var printed = PrintedText()
        var outputOpen = true
        var framer = LineFramer(maximumLineBytes: WorkerLine.maximumBytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)

        /// Reads what the pipe holds now; false at its end.
        func drainOutput() -> Bool {
            while true {
                let count = read(output, &buffer, buffer.count)
                if count > 0 {
                    printed.append(buffer[0..<count])
                    continue
                }
                if count == 0 { return false }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
        }

        reading: while true {
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            if outputOpen { descriptors.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if outputOpen, descriptors.count > 1, descriptors[1].revents != 0 {
                outputOpen = drainOutput()
            }
            guard descriptors[0].revents != 0 else { continue }
            let count = read(socket, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let piece = framer.next() {
                // What the worker printed before it wrote this message is already in the pipe
                // (both writes happened in order in the worker), so it is read first and goes
                // with this message.
                if outputOpen { outputOpen = drainOutput() }
                switch piece {
                case .line(let line):
                    if let message = WorkerLine.decode(WorkerMessage.self, from: line) {
                        report(.message(worker: id, message, printed: printed.take()))
                    } else {
                        report(.garbled(worker: id, line: String(decoding: line.prefix(200), as: UTF8.self)))
                    }
                case .tooLong:
                    report(.garbled(worker: id, line: nil))
                }
            }
        }
        // The socket is closed: the worker exited or is about to. Collect its last words (a
        // crash message) and its status.
        let deadline = ContinuousClock.now + .seconds(2)
        while outputOpen, ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            outputOpen = drainOutput()
        }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        var status: Int32 = 0
        reaped.withLock { reaped in
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
        }
        channel.withLock { socket in
            close(socket)
            socket = -1
        }
        close(output)
        report(.exited(worker: id, status: status, printed: printed.take()))
    }
}

/// Text a worker printed, split into lines, bounded by `WorkerProcess.printedLimit`.
private struct PrintedText {
    private var bytes: [UInt8] = []
    private var dropped = 0

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        let room = max(0, WorkerProcess.printedLimit - bytes.count)
        bytes += chunk.prefix(room)
        dropped += max(0, chunk.count - room)
    }

    /// The lines so far (empty lines left out), and a note if some were dropped; then empty.
    mutating func take() -> [String] {
        defer {
            bytes = []
            dropped = 0
        }
        var lines = bytes.split(separator: 0x0A).map { BatchInput.displayName(of: Array($0)).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if dropped > 0 { lines.append("(\(dropped) more bytes of output dropped)") }
        return lines
    }
}

/// Exit statuses from `waitpid`, in words.
enum ExitStatus {
    /// `worker crashed: signal 4 (SIGILL, illegal instruction)` or `worker exited with status 3`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "worker exited with status \((status >> 8) & 0xFF)" }
        if signal == SIGKILL {
            return "worker was killed: signal 9 (SIGKILL) from outside snap-poem, often the kernel's out-of-memory killer"
        }
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        ]
        let description = strsignal(signal).map { String(cString: $0).lowercased() } ?? "unknown signal"
        let name = names[signal].map { "\($0), " } ?? ""
        return "worker crashed: signal \(signal) (\(name)\(description))"
    }

    /// What to add to `describe(status)` when a worker that ran under a memory limit of
    /// `limit` bytes died by a signal after saying that an allocation failed (C++'s
    /// `std::bad_alloc`, Swift's "could not allocate memory", a library's "out of memory"):
    /// the limit, and that raising it helps (`Setting.workerMemory`). Empty otherwise: a crash
    /// that printed no such thing is not blamed on memory.
    static func memoryHint(status: Int32, printed: [String], limit: Int?) -> String {
        guard isSignal(status), status & 0x7F != SIGKILL, let limit else { return "" }
        let saysMemory = printed.contains { line in
            let lower = line.lowercased()
            return ["bad_alloc", "allocat", "out of memory"].contains { lower.contains($0) }
        }
        guard saysMemory else { return "" }
        return ", after an allocation failed under the worker memory limit of \(limit >> 20) MB; raising it may help"
    }

    /// Whether the process ended by a signal rather than by exiting.
    static func isSignal(_ status: Int32) -> Bool { status & 0x7F != 0 }
}

/// Calls `body` with a NULL-terminated C array of `strings`, valid for the call.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return (copies + [nil]).withUnsafeBufferPointer { body($0.baseAddress!) }
}
