import Dispatch
import Foundation

/// The worker side of a supervised batch (see `BatchSupervisor`): a process that reads
/// requests from file descriptor 3, one at a time, and answers each with a `WorkerReply`.
///
/// `serve` sets the process up for the job before anything else:
/// - a limit on its address space (`setrlimit(RLIMIT_AS)`), so runaway memory while
///   reading one image makes an allocation fail in this worker, not the machine swap (not
///   under a sanitizer, see `runsUnderSanitizer`);
/// - a watchdog thread that ends the worker when its supervisor is gone (the parent process
///   changed), even if the worker is stuck inside a C library;
/// - the test-only faults of `WorkerFault`.
/// Then it starts the engine through `start` and says `ready`; a start that fails is
/// reported as `fatal` with its exit code, and the worker exits.
public enum BatchWorker {
    /// The descriptor the protocol socket is given as.
    public static let channel: Int32 = 3

    /// Why a worker could not start: the message and the exit code for the batch.
    public struct StartFailure: Error, Sendable {
        /// One line.
        public var message: String
        /// The exit code the batch should end with.
        public var code: Int32

        /// Creates a start failure.
        public init(message: String, code: Int32) {
            self.message = message
            self.code = code
        }
    }

    /// Answers one request.
    public typealias Handler = @Sendable (WorkerRequest) async -> WorkerReply

    /// Serves requests until the supervisor closes the channel.
    ///
    /// - Parameters:
    ///   - memoryLimit: the address-space limit in bytes, or nil for none.
    ///   - environment: where `WorkerFault`'s variable is looked up.
    ///   - start: starts the engine and returns the handler for requests.
    /// - Returns: the process's exit code: 0 after a clean end, the start failure's code, or
    ///   64 when descriptor 3 is not a supervisor's socket (someone ran the worker mode by hand).
    public static func serve(
        memoryLimit: Int?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        start: () async throws(StartFailure) -> Handler
    ) async -> Int32 {
        var info = stat()
        guard fstat(channel, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            FileHandle.standardError.write(
                Data("snap-poem: error: the batch worker mode is internal: it talks to a supervising snap-poem on descriptor 3\n".utf8))
            return 64
        }
        watchParent()
        if let memoryLimit, !runsUnderSanitizer {
            var limit = rlimit(rlim_cur: rlim_t(memoryLimit), rlim_max: rlim_t(memoryLimit))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
        let faults = WorkerFault.plan(from: environment)
        let handler: Handler
        do throws(StartFailure) {
            handler = try await start()
        } catch {
            _ = WorkerLine.send(WorkerLine.encode(WorkerMessage.fatal(error.message, code: error.code)), to: channel)
            return error.code
        }
        guard WorkerLine.send(WorkerLine.encode(WorkerMessage.ready()), to: channel) else { return 0 }
        var reader = LineReader(descriptor: channel)
        while let line = await reader.nextLine() {
            guard let request = WorkerLine.decode(WorkerRequest.self, from: line) else {
                FileHandle.standardError.write(Data("snap-poem: worker: a request that cannot be read\n".utf8))
                return 70
            }
            if let fault = faults[request.relativeName] ?? faults[(request.name as NSString).lastPathComponent] {
                fault.strike()
            }
            let reply = await handler(request)
            guard WorkerLine.send(WorkerLine.encode(WorkerMessage.result(request.id, reply)), to: channel) else { return 0 }
        }
        return 0
    }

    /// Whether a sanitizer runtime (ThreadSanitizer, AddressSanitizer) is loaded: they reserve
    /// terabytes of address space for shadow memory, so an address-space limit would stop
    /// them at start, and the memory limit is not applied under them.
    static var runsUnderSanitizer: Bool {
        let names: [String] = ["__tsan_init", "__asan_init"]
        return names.contains { name in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil }
    }

    /// Ends the process when its parent changes (the supervisor died and the worker was
    /// handed to another process), checking four times a second on a thread of its own.
    private static func watchParent() {
        let parent = getppid()
        let thread = Thread {
            while true {
                usleep(250_000)
                if getppid() != parent { _exit(70) }
            }
        }
        thread.name = "snap-poem.worker-watchdog"
        thread.start()
    }
}

/// Reads newline-terminated lines from a descriptor, blocking on a Dispatch thread rather
/// than on one of Swift's cooperative threads.
private struct LineReader {
    let descriptor: Int32
    private var pending = Data()
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line without its newline, or nil at the end.
    mutating func nextLine() async -> Data? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                return Data(line)
            }
            if ended { return nil }
            let descriptor = self.descriptor
            let chunk: Data? = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = read(descriptor, &buffer, buffer.count)
                        if count < 0, errno == EINTR { continue }
                        continuation.resume(returning: count > 0 ? Data(buffer[0..<count]) : nil)
                        return
                    }
                }
            }
            guard let chunk else {
                ended = true
                continue
            }
            pending.append(chunk)
        }
    }
}
