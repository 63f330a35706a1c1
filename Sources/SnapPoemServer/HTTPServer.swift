import CMicroHTTPD
import Foundation
import SnapPoemService
import Synchronization

/// The HTTP server under `snap-poem serve`: libmicrohttpd frames requests and the
/// `PoemService` answers them.
///
/// libmicrohttpd runs one internal polling thread (epoll) for every connection. That thread
/// only moves bytes: it collects headers and the body (refusing bodies over the limit with
/// 413, from `Content-Length` before reading any of it), parses forms with libmicrohttpd's
/// own `MHD_PostProcessor`, then suspends the connection (`MHD_suspend_connection`) and
/// hands the request to a Swift task. Recognition never runs on the polling thread; when the
/// task has the answer it resumes the connection and the polling thread sends it.
///
/// Nothing of a request is written to disk or logged beyond one line when it completes:
/// method, path, status, bytes in and out, milliseconds, request id.
public final class HTTPServer: Sendable {
    /// The service that answers.
    public let service: PoemService
    /// What the server was started with.
    public let configuration: ServerConfiguration
    /// The port listened on (the system's choice when `configuration.port` is 0).
    public let port: UInt16
    private let core: ServerCore
    private let daemon: DaemonHandle
    private let stopped = Atomic<Bool>(false)

    /// Binds the address and starts libmicrohttpd's thread.
    ///
    /// - Parameter log: receives each request's log line and the server's own notes.
    /// - Throws: `ServerError` when the address cannot be bound or libmicrohttpd refuses to
    ///   start.
    public init(service: PoemService, configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        let socket = try ListeningSocket(host: configuration.host, port: configuration.port, backlog: 128)
        let core = ServerCore(service: service, configuration: configuration, log: log)
        let context = Unmanaged.passUnretained(core).toOpaque()
        let flags =
            MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let logger: MHD_LogCallback = libmicrohttpdMessage
        let completed: MHD_RequestCompletedCallback = requestCompleted
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(
                option: .PER_IP_CONNECTION_LIMIT, value: configuration.connectionLimitPerAddress, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: 128 << 10, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(logger, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let handler: MHD_AccessHandlerCallback = accessHandler
        let started = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, handler, context, arguments)
            }
        }
        guard let started else {
            close(socket.descriptor)
            let note = core.startupMessages().last.map { ": \($0)" } ?? ""
            throw ServerError("libmicrohttpd could not start\(note)")
        }
        core.finishStartup()
        self.service = service
        self.configuration = configuration
        self.port = socket.port
        self.core = core
        self.daemon = DaemonHandle(pointer: started)
    }

    /// Stops libmicrohttpd if `stop()` was never called (its thread must not outlive the
    /// context it reaches). Not graceful: call `stop()` for that.
    deinit {
        if !stopped.load(ordering: .relaxed) {
            _ = core.cancelRemaining()
            MHD_stop_daemon(daemon.pointer)
        }
    }

    /// Requests received but not yet completed.
    public var requestsInProgress: Int { core.active.load(ordering: .relaxed) }

    /// Stops gracefully: stops accepting connections, lets the service refuse new work, waits
    /// up to `configuration.drainTimeout` for the requests in flight, cancels any left (they
    /// are answered 503 within the recognizer's grace period), and stops libmicrohttpd.
    public func stop() async {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        core.beginDraining()
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 { close(listener) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.drainTimeout)
        while core.active.load(ordering: .relaxed) > 0, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let left = core.cancelRemaining()
        if left > 0 {
            core.log("snap-poem serve: stop: \(left) request(s) still running after \(configuration.drainTimeout); cancelled")
        }
        // Suspended connections must be resumed before the daemon stops; cancelled tasks
        // answer within the recognizer's grace period.
        let hardDeadline = clock.now.advanced(by: .seconds(5))
        while core.suspended.load(ordering: .relaxed) > 0, clock.now < hardDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        // Give the polling thread a moment to send what was just answered.
        let sendDeadline = clock.now.advanced(by: .seconds(2))
        while core.active.load(ordering: .relaxed) > 0, clock.now < sendDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        MHD_stop_daemon(daemon.pointer)
    }
}

/// The daemon pointer, used only to quiesce and stop it.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What libmicrohttpd's callbacks reach through their context pointer: the service, the
/// limits, the log, and the counts a stop waits on.
final class ServerCore: Sendable {
    let service: PoemService
    let configuration: ServerConfiguration
    let log: @Sendable (String) -> Void
    /// Requests begun and not completed.
    let active = Atomic<Int>(0)
    /// Connections suspended while the service answers.
    let suspended = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    private let running = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])
    private let startup = Mutex<[String]?>([])

    init(service: PoemService, configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void) {
        self.service = service
        self.configuration = configuration
        self.log = log
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func beginDraining() {
        draining.store(true, ordering: .relaxed)
        service.beginDraining()
    }

    /// Keeps a message of libmicrohttpd while the daemon starts (to explain a failure);
    /// later ones are dropped, since each request's own line says how it ended.
    func note(_ message: String) {
        startup.withLock { $0?.append(message) }
    }

    func startupMessages() -> [String] { startup.withLock { $0 ?? [] } }

    func finishStartup() { startup.withLock { $0 = nil } }

    /// Runs the service for `context` in a task, then resumes `connection`.
    func dispatch(_ context: RequestContext, connection: ConnectionHandle) {
        let request = context.request
        let service = self.service
        suspended.add(1, ordering: .relaxed)
        let key = ObjectIdentifier(context)
        // Started and registered under the lock, so the task's own removal (which takes the
        // lock) always comes after its registration: no finished task stays registered.
        running.withLock { tasks in
            let task = Task {
                let response = await service.respond(to: request)
                context.answer.withLock { $0 = response }
                self.running.withLock { _ = $0.removeValue(forKey: key) }
                self.suspended.subtract(1, ordering: .relaxed)
                MHD_resume_connection(connection.pointer)
            }
            tasks[key] = task
            context.task = task
        }
    }

    /// Cancels the tasks still running; returns how many there were.
    func cancelRemaining() -> Int {
        let tasks = running.withLock { $0.values }
        for task in tasks { task.cancel() }
        return tasks.count
    }
}
