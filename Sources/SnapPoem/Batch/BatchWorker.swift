import Foundation

/// The worker side of a supervised batch (see `BatchSupervisor`): a process that reads its
/// `WorkerConfiguration` and then requests from file descriptor 3, one at a time, and
/// answers each with an `ImageOutcome` (`ImageReader`: the same path as a batch of one read
/// in-process).
///
/// `serve()` sets the process up for the job before anything else:
/// - a limit on its address space (`setrlimit(RLIMIT_AS)`, from the configuration), so
///   runaway memory while reading one image makes an allocation fail in this worker, not the
///   machine swap (not under a sanitizer, see `runsUnderSanitizer`);
/// - a watchdog thread that ends the worker when its supervisor is gone (the parent process
///   changed), even if the worker is stuck inside a C library.
/// Then it starts the engine and says `ready`; an engine that cannot start is reported as
/// `fatal`, and the worker exits.
public enum BatchWorker {
    /// The descriptor the protocol socket is given as.
    public static let channel: Int32 = 3

    /// Serves requests until the supervisor closes the channel.
    ///
    /// - Parameter environment: where the test builds' injected faults are looked up
    ///   (`WorkerFault`, in debug builds only).
    /// - Returns: the process's exit code: 0 after a clean end, 1 when the engine could not
    ///   start, 70 when the supervisor broke the protocol, or 64 when descriptor 3 is not a
    ///   supervisor's socket (someone ran the worker mode by hand).
    public static func serve(environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        var info = stat()
        guard fstat(channel, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            FileHandle.standardError.write(
                Data("snap-poem: error: the batch worker mode is internal: it talks to a supervising snap-poem on descriptor 3\n".utf8))
            return 64
        }
        watchParent()
        // The supervisor ties what this process prints to the image in flight: the codecs'
        // messages go there as they come, as the libraries would print them.
        CodecMessages.passThrough()
        var reader = ChannelReader(descriptor: channel)
        guard case .line(let first)? = await reader.next(),
            let configuration = WorkerLine.decode(WorkerConfiguration.self, from: first)
        else {
            FileHandle.standardError.write(Data("snap-poem: worker: no configuration from the supervisor\n".utf8))
            return 70
        }
        var appliedLimit: Int?
        if let memoryLimit = configuration.memoryLimit, !runsUnderSanitizer {
            var limit = rlimit(rlim_cur: rlim_t(memoryLimit), rlim_max: rlim_t(memoryLimit))
            if setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 { appliedLimit = memoryLimit }
        }
        #if SNAP_POEM_TEST_HOOKS
            let faults = WorkerFault.plan(from: environment)
        #endif
        let scanner: PoemScanner
        do throws(SnapPoemError) {
            scanner = try await PoemScanner(configuration: configuration.scan)
        } catch {
            let category: Diagnostic.Category = error.category == .usage ? .usage : .engine
            var failure = Diagnostic(error)
            failure.category = category
            _ = WorkerLine.send(WorkerLine.encode(WorkerMessage.fatal(failure)), to: channel)
            return 1
        }
        var imageReader = ImageReader(scanner: scanner, request: configuration.export)
        imageReader.memoryLimit = appliedLimit
        #if SNAP_POEM_TEST_HOOKS
            let strike: (WorkerRequest) -> Void = { request in
                if let fault = faults[request.relativeName] ?? faults[(request.name as NSString).lastPathComponent] {
                    fault.strike(channel: channel)
                }
            }
        #else
            let strike: (WorkerRequest) -> Void = { _ in }
        #endif
        let code = await answer(imageReader, reader: &reader, before: strike)
        // An engine still loading in the background (the supervisor may close the channel at
        // once) is waited for, so that the scanner is freed whole before the process exits.
        await scanner.finishLoading()
        return code
    }

    /// The loop of `serve(environment:)`: each request read, `before` called with it (the
    /// test builds' injected faults), then answered. Returns the exit code.
    private static func answer(
        _ imageReader: ImageReader, reader: inout ChannelReader, before: (WorkerRequest) -> Void
    ) async -> Int32 {
        guard WorkerLine.send(WorkerLine.encode(WorkerMessage.ready()), to: channel) else { return 0 }
        while let piece = await reader.next() {
            guard case .line(let line) = piece, let request = WorkerLine.decode(WorkerRequest.self, from: line) else {
                FileHandle.standardError.write(Data("snap-poem: worker: a request that cannot be read\n".utf8))
                return 70
            }
            before(request)
            let outcome = await imageReader.read(
                request.job,
                pageStarted: { page in _ = WorkerLine.send(WorkerLine.encode(WorkerMessage.page(request.id, page)), to: channel) })
            guard WorkerLine.send(WorkerLine.encode(WorkerMessage.result(request.id, outcome)), to: channel) else { return 0 }
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

/// Reads the supervisor's lines from the channel, blocking on a Dispatch thread rather than
/// on one of Swift's cooperative threads, framed by `LineFramer` within
/// `WorkerLine.maximumBytes`.
private struct ChannelReader {
    let descriptor: Int32
    private var framer = LineFramer(maximumLineBytes: WorkerLine.maximumBytes)
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line (or a line too long), or nil at the end.
    mutating func next() async -> LineFramer.Piece? {
        while true {
            if let piece = framer.next() { return piece }
            if ended { return nil }
            let descriptor = self.descriptor
            let chunk: Data? = await offload(qos: .default) {
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    return count > 0 ? Data(buffer[0..<count]) : nil
                }
            }
            guard let chunk else {
                ended = true
                continue
            }
            framer.append(chunk)
        }
    }
}
