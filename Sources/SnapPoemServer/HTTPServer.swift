import CMicroHTTPD
import Foundation
import SnapPoemService
import Synchronization

/// The HTTP server under `snap-poem serve`: libmicrohttpd frames requests and the
/// `PoemService` answers them.
///
/// One loop thread of the server's own runs libmicrohttpd (`MHD_run_wait` over epoll) for
/// every connection, and between two rounds looks after them: a request whose headers, or
/// whose headers and body, take longer than their deadlines is cut off (`shutdown` of its
/// socket, on this same thread, so that libmicrohttpd never reuses it meanwhile); a client
/// that hangs up while the service works on its request has the request's task cancelled;
/// connections are kept within their places and their memory (`ServerCore.admit(_:)`,
/// `ServerCore.keepWithinConnectionBudget()`), closing the most expendable one without a
/// request under way, so that slow clients never keep a health probe or an honest client
/// out.
/// The thread only moves bytes and keeps budgets: it collects headers and the body,
/// refuses what is over a limit before reading it (413 from `Content-Length`, 503 once the
/// bodies held pass the upload budget, 429 past an address's share), parses forms with
/// libmicrohttpd's own `MHD_PostProcessor` (refusing at the first part over a limit), and
/// answers at once everything that needs no engine: `/healthz`, `/readyz`, `/metrics`, the
/// page, errors. No scan, personalisation or export can hold those up. A request for a
/// poem is suspended (`MHD_suspend_connection`) and handed to a Swift task; when the task
/// has the answer it resumes the connection and the loop sends it.
///
/// Nothing of a request is written to disk or logged beyond one line when it completes:
/// method, path, status, bytes in and out, milliseconds, request id.
public final class HTTPServer: Sendable {
    /// The service that answers.
    public let service: PoemService
    /// What the server runs with: what it was started with, its `connectionLimit` lowered to
    /// what the process's limit of open files allows (`connectionsTheFileLimitAllows()`) and to
    /// what the connection budget holds of light connections
    /// (`ServerConfiguration.lightConnectionBytes`), so that connections which have sent a page
    /// or less never need closing for memory.
    public let configuration: ServerConfiguration
    /// The port listened on (the system's choice when `configuration.port` is 0).
    public let port: UInt16
    private let core: ServerCore
    private let daemon: DaemonHandle
    private let stopped = Atomic<Bool>(false)

    /// Binds the address and starts the loop thread.
    ///
    /// - Parameter log: receives each request's log line and the server's own notes; its
    ///   dropped lines are counted in `/metrics`.
    /// - Throws: `ServerError` when the address cannot be bound or libmicrohttpd refuses to
    ///   start.
    public init(service: PoemService, configuration: ServerConfiguration, log: ServerLog) throws(ServerError) {
        var configuration = configuration
        configuration.connectionLimit = min(
            configuration.connectionLimit, Self.connectionsTheFileLimitAllows(),
            max(1, configuration.connectionBudgetBytes / ServerConfiguration.lightConnectionBytes))
        // A backlog for bursts: a client that opens hundreds of connections at once would
        // otherwise overflow 128, and every connection dropped meanwhile (a health probe's
        // too) waits a second for its SYN to be sent again.
        let socket = try ListeningSocket(host: configuration.host, port: configuration.port, backlog: 1024)
        let core = ServerCore(service: service, configuration: configuration, log: log)
        let context = Unmanaged.passUnretained(core).toOpaque()
        // No internal thread: the loop thread below calls MHD_run_wait itself.
        let flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let logger: MHD_LogCallback = libmicrohttpdMessage
        let completed: MHD_RequestCompletedCallback = requestCompleted
        let notified: MHD_NotifyConnectionCallback = connectionNotified
        let requestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? =
            requestLineArrived
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            // A second more than the idle timeout: a body that stops arriving is timed out by the
            // housekeeping first, which can still answer it (408) and let go of its budget.
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds + 1, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: ServerConfiguration.connectionMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(notified, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(requestLine, to: Int.self), ptr_value: context),
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
        // Weakly: the service must not keep the core (and through it the service itself, its
        // engines and pools) alive once the server has gone; a strong capture was a cycle that
        // kept all of it until the process exited.
        service.setAdditionalMetrics { [weak core] in core?.metricsText() ?? "" }
        core.startLoop(daemon: DaemonHandle(pointer: started))
    }

    /// Stops libmicrohttpd if `stop()` was never called (its thread must not outlive the
    /// context it reaches). Not graceful: call `stop()` for that.
    deinit {
        if !stopped.load(ordering: .relaxed) {
            _ = core.cancelRemaining()
            core.endLoop()
            MHD_stop_daemon(daemon.pointer)
        }
    }

    /// Descriptors kept for everything but client connections: the listening socket, epoll,
    /// the log's pipes, the models and images being read, the workers' own.
    public static let descriptorsBesideConnections = 256

    /// The most connections the process's limit of open files (`RLIMIT_NOFILE`, its soft
    /// limit) leaves room for beside `descriptorsBesideConnections`; at least 1. Past it
    /// libmicrohttpd could not accept connections at all.
    public static func connectionsTheFileLimitAllows() -> Int {
        var limit = rlimit()
        let unlimited = rlim_t.max  // RLIM_INFINITY, which Swift does not import
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != unlimited else { return .max }
        return max(1, Int(clamping: limit.rlim_cur) - descriptorsBesideConnections)
    }

    /// The routes a connection past its address's share may still use: liveness, readiness
    /// and metrics, which a probe must always reach.
    static let healthPaths: Set<String> = ["/healthz", "/readyz", "/metrics"]

    /// Requests received but not yet completed.
    public var requestsInProgress: Int { core.active.load(ordering: .relaxed) }

    /// Stops gracefully: stops accepting connections, lets the service refuse new work, waits
    /// up to `configuration.drainTimeout` for the requests in flight, cancels any left (they
    /// are answered 503 within the recognizer's grace period), and stops libmicrohttpd.
    public func stop() async {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        core.beginDraining()
        let clock = ContinuousClock()
        // The loop closes the listening socket (MHD_quiesce_daemon) at its next round.
        let quiesceDeadline = clock.now.advanced(by: .seconds(2))
        while !core.isQuiesced, clock.now < quiesceDeadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
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
        // Give the loop a moment to send what was just answered.
        let sendDeadline = clock.now.advanced(by: .seconds(2))
        while core.active.load(ordering: .relaxed) > 0, clock.now < sendDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        core.requestLoopEnd()
        while !core.loopEnded {
            try? await Task.sleep(for: .milliseconds(5))
        }
        MHD_stop_daemon(daemon.pointer)
    }
}

/// The daemon pointer, used by the loop thread and to stop it.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What only the loop thread touches: the connections and the upload budget. Reached through
/// `ServerCore.loop`, from libmicrohttpd's callbacks and the housekeeping, which all run on
/// that one thread (which is what makes the `@unchecked Sendable` sound).
final class LoopState: @unchecked Sendable {
    var connections: [ObjectIdentifier: ConnectionState] = [:]
    /// The connections open from each address, oldest first (libmicrohttpd's own limit per
    /// address is off: past it, it resets new connections unanswered).
    var connectionsByAddress: [String: [ConnectionState]] = [:]
    var budget: UploadBudget
    /// When clients were last looked at for having gone.
    var lastGoneCheck = ContinuousClock.now
    /// When the connections' costs were last measured.
    var lastCostCheck = ContinuousClock.now
    /// The connections' cost at the last measure (`ConnectionState.cost`, summed).
    var connectionBytes = 0
    /// Whether the connections held more than the connection budget at the last measure with
    /// none left to close: new requests other than the health routes are refused.
    var overConnectionBudget = false

    init(budget: UploadBudget) {
        self.budget = budget
    }
}

/// What libmicrohttpd's callbacks reach through their context pointer: the service, the
/// limits, the log, the loop's state and the counts a stop waits on.
final class ServerCore: Sendable {
    let service: PoemService
    let configuration: ServerConfiguration
    let logger: ServerLog
    let loop: LoopState
    let metrics = ServerMetrics()
    /// Requests begun and not completed.
    let active = Atomic<Int>(0)
    /// Connections suspended while the service answers.
    let suspended = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    private let quiesced = Atomic<Bool>(false)
    private let endRequested = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    private let running = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])
    private let startup = Mutex<[String]?>([])

    init(service: PoemService, configuration: ServerConfiguration, log: ServerLog) {
        self.service = service
        self.configuration = configuration
        self.logger = log
        let places = service.configuration.workers + service.configuration.queueLimit
        loop = LoopState(
            budget: UploadBudget(
                totalBytes: configuration.maxBufferedBodyBytes,
                bytesPerAddress: min(
                    configuration.maxBufferedBodyBytes,
                    max(configuration.maxUploadBytes, configuration.maxBufferedBodyBytes * configuration.addressSharePercent / 100)),
                placesPerAddress: max(1, places * configuration.addressSharePercent / 100)))
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }
    var isQuiesced: Bool { quiesced.load(ordering: .relaxed) }
    var loopEnded: Bool { ended.load(ordering: .relaxed) }

    func beginDraining() {
        draining.store(true, ordering: .relaxed)
        service.beginDraining()
    }

    func log(_ line: String) { logger.write(line) }

    /// Keeps a message of libmicrohttpd while the daemon starts (to explain a failure);
    /// later ones are dropped, since each request's own line says how it ended.
    func note(_ message: String) {
        startup.withLock { $0?.append(message) }
    }

    func startupMessages() -> [String] { startup.withLock { $0 ?? [] } }

    func finishStartup() { startup.withLock { $0 = nil } }

    /// The server's own lines of `/metrics`.
    func metricsText() -> String {
        metrics.render(
            bufferedBytes: metrics.bufferedBytes.load(ordering: .relaxed), bufferedLimit: configuration.maxBufferedBodyBytes,
            connectionLimitBytes: configuration.connectionBudgetBytes, droppedLogLines: logger.droppedLines)
    }

    /// Publishes the bytes held by the upload budget (read by `/metrics`).
    func noteBufferedBytes() {
        metrics.bufferedBytes.store(loop.budget.heldBytes, ordering: .relaxed)
    }

    /// Why `bytes` more of an upload from `address` cannot be held, as the client is told,
    /// with a `Retry-After` from the uploads in the way (`budgetRetryAfterSeconds`).
    func shortageError(_ shortage: UploadBudget.Shortage, address: String, bytes: Int) -> ServiceError {
        metrics.refusedUploads.add(1, ordering: .relaxed)
        let seconds = budgetRetryAfterSeconds(shortage, address: address, bytes: bytes)
        switch shortage {
        case .total:
            return .tooManyUploads(limitBytes: loop.budget.totalBytes, retryAfterSeconds: seconds)
        case .address:
            return .addressUploadsBusy(limitBytes: loop.budget.bytesPerAddress, retryAfterSeconds: seconds)
        }
    }

    /// When enough of the upload budget is expected to be free for `bytes` more from
    /// `address`: the uploads held (the address's, for its share; everyone's, for the total)
    /// are let go of in the order they are expected to end. One still arriving ends when the
    /// rest of it has come at the rate it came so far, then waits for and holds an engine
    /// (`PoemService.retryAfterSeconds`); or, when that is later, when it would be timed out
    /// (silent for `--idle-timeout`, or at `--request-timeout`), at once. One in the service
    /// ends with its recognition. Seconds, at least 1: an upload abandoned without a word is
    /// not "1 s" away but as far as its idle timeout.
    func budgetRetryAfterSeconds(_ shortage: UploadBudget.Shortage, address: String, bytes: Int) -> Int {
        let now = ContinuousClock.now
        let serviceWait = Double(service.retryAfterSeconds)
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        var releases: [(seconds: Double, bytes: Int)] = []
        for state in loop.connections.values {
            guard let request = state.request, request.reservedBytes > 0, shortage == .total || request.address == address else {
                continue
            }
            if request.dispatched {
                releases.append((serviceWait, request.reservedBytes))
                continue
            }
            let timedOut = max(
                0,
                min(
                    seconds(state.phaseStart + .seconds(configuration.requestTimeoutSeconds) - now),
                    seconds(request.lastArrival + .seconds(configuration.idleTimeoutSeconds) - now)))
            let elapsed = seconds(now - request.start)
            var end = timedOut
            if request.receivedBytes > 0, elapsed > 0 {
                let rest = Double(max(0, request.reservedBytes - request.receivedBytes)) / (Double(request.receivedBytes) / elapsed)
                if rest < timedOut { end = rest + serviceWait }
            }
            releases.append((end, request.reservedBytes))
        }
        let held = shortage == .total ? loop.budget.heldBytes : loop.budget.heldBytes(for: address)
        let limit = shortage == .total ? loop.budget.totalBytes : loop.budget.bytesPerAddress
        var needed = held + bytes - limit
        var wait = serviceWait
        for release in releases.sorted(by: { $0.seconds < $1.seconds }) {
            wait = release.seconds
            needed -= release.bytes
            if needed <= 0 { break }
        }
        return Int(min(3600, max(1, wait.rounded(.up))))
    }

    // MARK: The loop thread

    func startLoop(daemon: DaemonHandle) {
        let thread = Thread { [self] in runLoop(daemon) }
        thread.name = "snap-poem.http"
        thread.start()
    }

    func requestLoopEnd() { endRequested.store(true, ordering: .relaxed) }

    /// Ends the loop and waits for it (for `deinit`).
    func endLoop() {
        requestLoopEnd()
        while !loopEnded { usleep(2_000) }
    }

    private func runLoop(_ daemon: DaemonHandle) {
        while !endRequested.load(ordering: .relaxed) {
            // Woken by network activity, by MHD_resume_connection from a task, or after
            // 50 ms at most, so that deadlines are looked at often enough.
            _ = MHD_run_wait(daemon.pointer, 50)
            housekeeping()
            if isDraining, !isQuiesced {
                let listener = MHD_quiesce_daemon(daemon.pointer)
                if listener >= 0 { close(listener) }
                quiesced.store(true, ordering: .relaxed)
            }
        }
        ended.store(true, ordering: .relaxed)
    }

    /// Between two rounds of libmicrohttpd: cuts off connections past their deadlines, and
    /// cancels the work of clients that have gone.
    private func housekeeping() {
        let now = ContinuousClock.now
        let headerLimit = Duration.seconds(configuration.headerTimeoutSeconds)
        let keptAliveLimit = Duration.seconds(configuration.headerTimeoutSeconds + configuration.idleTimeoutSeconds)
        let requestLimit = Duration.seconds(configuration.requestTimeoutSeconds)
        let idleLimit = Duration.seconds(configuration.idleTimeoutSeconds)
        var waiting: [ConnectionState] = []
        for state in loop.connections.values where state.cutBecause == nil {
            if let request = state.request {
                guard request.status == nil else { continue }  // answered: being sent
                if request.dispatched {
                    if !request.clientGone { waiting.append(state) }
                } else if now - state.phaseStart > requestLimit {
                    timeOut(
                        state, request, because: "request-timeout",
                        error: .requestTimedOut(seconds: configuration.requestTimeoutSeconds, stalled: false))
                } else if now - request.lastArrival > idleLimit {
                    timeOut(
                        state, request, because: "idle-timeout",
                        error: .requestTimedOut(seconds: configuration.idleTimeoutSeconds, stalled: true))
                }
            } else if now - state.phaseStart > (state.completedRequests == 0 ? headerLimit : keptAliveLimit) {
                cut(state, because: "header-timeout")
            }
        }
        if now - loop.lastCostCheck >= .milliseconds(250) {
            loop.lastCostCheck = now
            keepWithinConnectionBudget()
        }
        guard !waiting.isEmpty, now - loop.lastGoneCheck >= .milliseconds(100) else { return }
        loop.lastGoneCheck = now
        // A suspended connection is not watched by libmicrohttpd: poll its socket for the
        // client's hang-up.
        let readSideClosed = Int16(0x2000)  // POLLRDHUP, Linux's: the peer sends no more
        var polled = waiting.map { pollfd(fd: $0.descriptor, events: readSideClosed, revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 0) > 0 else { return }
        for (state, entry) in zip(waiting, polled) where entry.revents != 0 {
            guard let request = state.request, !request.clientGone else { continue }
            if entry.revents & (Int16(POLLHUP) | Int16(POLLERR)) == 0 {
                // POLLRDHUP alone: the peer sends no more, which a client that closed its
                // socket and one that only shut its sending side (shutdown(SHUT_WR), after a
                // whole request, still reading) both do. Only a write tells them apart: a
                // closed socket answers it with a reset (POLLERR/POLLHUP at the next look).
                // The one write HTTP/1.1 allows before the answer is an interim response,
                // which every client must read past (RFC 9110, 15.2); HTTP/1.0 has none.
                if request.interimProbed { continue }
                if request.acceptsInterimResponse {
                    request.interimProbed = true
                    let probe = "HTTP/1.1 100 Continue\r\n\r\n"
                    let sent = probe.withCString { send(state.descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                    if sent == probe.utf8.count { continue }
                }
            }
            request.clientGone = true
            request.closedBecause = "client-gone"
            request.task?.cancel()
            metrics.abandoned.add(1, ordering: .relaxed)
        }
    }

    /// Ends a request whose body stopped arriving, or came too slowly: it is answered (the
    /// refusal already found for it, else 408 with `error`), written straight to the socket,
    /// since libmicrohttpd 0.9.75 queues no answer in the middle of a body (nothing of its
    /// own is being written then); what it held of the upload budget is let go of at once,
    /// and the connection is cut off.
    private func timeOut(_ state: ConnectionState, _ request: RequestContext, because reason: String, error: ServiceError) {
        let answer = service.refusal(
            request.refusal ?? error, method: request.method, path: request.path, requestID: request.id,
            uploadedBytes: request.receivedBytes)
        let bytes = Self.wireBytes(of: answer)
        _ = bytes.withUnsafeBytes { send(state.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        request.status = answer.status
        request.sentBytes = answer.body.count
        if request.refusal == nil { request.refusal = error }
        request.dropBody()
        loop.budget.release(request.reservedBytes, for: request.address)
        request.reservedBytes = 0
        noteBufferedBytes()
        cut(state, because: reason)
    }

    /// `response` as HTTP/1.1 bytes, closing the connection (for the answers written without
    /// libmicrohttpd).
    static func wireBytes(of response: HTTPResponse) -> Data {
        let reason = MHD_get_reason_phrase_for(UInt32(response.status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(response.status) \(reason)\r\n"
        head += "Date: \(Self.httpDate(time(nil)))\r\n"
        var headerBytes = 0
        for field in response.headers where !field.value.contains(where: { $0 == "\r" || $0 == "\n" }) {
            headerBytes += field.name.utf8.count + field.value.utf8.count + 4
            guard headerBytes <= HTTPResponse.maximumHeaderBytes else { break }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + response.body
    }

    /// An HTTP date (RFC 9110, 5.6.7): `Fri, 04 Dec 2026 14:02:17 GMT`.
    static func httpDate(_ seconds: time_t) -> String {
        var parts = tm()
        var copy = seconds
        gmtime_r(&copy, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Cuts a connection off: its socket is shut down, and libmicrohttpd closes it at its next
    /// round (the descriptor stays its own until then).
    func cut(_ state: ConnectionState, because reason: String) {
        state.cutBecause = reason
        state.request?.closedBecause = reason
        shutdown(state.descriptor, Int32(SHUT_RDWR))
        switch reason {
        case "header-timeout": metrics.headerTimeouts.add(1, ordering: .relaxed)
        case "request-timeout": metrics.requestTimeouts.add(1, ordering: .relaxed)
        case "idle-timeout": metrics.stalledUploads.add(1, ordering: .relaxed)
        default: metrics.evicted.add(1, ordering: .relaxed)
        }
    }

    /// Takes in a new connection from `state.address`. Past the address's share of
    /// connections (`connectionLimitPerAddress`), the address's most expendable connection
    /// without a request under way (`ConnectionState.isMoreExpendable(than:)`: the one holding
    /// the most memory, then the one waiting longest for its request) is closed to make room: it
    /// holds nothing sent whole, and HTTP lets a server close such a connection at any time.
    /// When every one of them has a request under way, the new one stays open all the same:
    /// its requests are answered at once (`isFull(_:)`), the health routes as usual and the
    /// rest 429 with `Retry-After`. Either way the client gets an answer, never the reset
    /// libmicrohttpd's own limit per address gives.
    ///
    /// In the same way, once the connections open reach the reserve
    /// (`ServerConfiguration.connectionReserve` places below `connectionLimit`), each new one
    /// closes the most expendable connection of any address, so that libmicrohttpd's own
    /// limit, past which new connections wait unanswered in the backlog, is not reached while
    /// slow or idle clients hold places: a health probe or an honest client always gets in,
    /// and sends its request before it could be the most expendable.
    func admit(_ state: ConnectionState) {
        var open = loop.connectionsByAddress[state.address, default: []]
        open.append(state)
        loop.connectionsByAddress[state.address] = open
        let live = open.filter { $0.cutBecause == nil }
        if live.count > configuration.connectionLimitPerAddress, let victim = Self.mostExpendable(live, except: state) {
            cut(victim, because: "evicted")
        }
        let openAnywhere = loop.connections.values.count { $0.cutBecause == nil }
        if openAnywhere > configuration.connectionLimit - configuration.connectionReserve,
            let victim = Self.mostExpendable(loop.connections.values, except: state)
        {
            cut(victim, because: "evicted")
        }
    }

    /// The connection of `candidates` other than `except`, without a request under way, that
    /// is best closed to make room.
    static func mostExpendable(_ candidates: some Sequence<ConnectionState>, except: ConnectionState?) -> ConnectionState? {
        var best: ConnectionState?
        for state in candidates where state !== except && state.isIdle {
            if let chosen = best, !state.isMoreExpendable(than: chosen) { continue }
            best = state
        }
        return best
    }

    /// Measures what each connection whose cost may still grow has received
    /// (`snap_poem_bytes_received`), and while the connections together cost more than
    /// `connectionBudgetBytes`, closes the most expendable ones without a request under way
    /// that cost more than a light connection (`ServerConfiguration.lightConnectionBytes`: kept
    /// alive after a request, or holding more than a page of unfinished headers). Light ones
    /// are never closed for memory: the places are as many as the budget holds of them, and
    /// among them are the new connections whose requests have yet to arrive (a health
    /// probe's). When none is left to close and they still cost more, new requests other than
    /// the health routes are refused (`headersArrived`) until they cost less.
    func keepWithinConnectionBudget() {
        var total = 0
        var idle: [ConnectionState] = []
        for state in loop.connections.values where state.cutBecause == nil {
            if state.costMayGrow {
                let received = snap_poem_bytes_received(state.descriptor)
                if received >= 0 { state.bytesReceived = Int(received) }
            }
            total += state.cost
            if state.isIdle, state.cost > ServerConfiguration.lightConnectionBytes { idle.append(state) }
        }
        if total > configuration.connectionBudgetBytes {
            for state in idle.sorted(by: { $0.isMoreExpendable(than: $1) }) {
                total -= state.cost
                cut(state, because: "evicted")
                if total <= configuration.connectionBudgetBytes { break }
            }
        }
        loop.connectionBytes = total
        loop.overConnectionBudget = total > configuration.connectionBudgetBytes
        metrics.connectionBytes.store(total, ordering: .relaxed)
    }

    /// Whether the other connections of `state`'s address already have their share of
    /// requests under way.
    func isFull(_ state: ConnectionState) -> Bool {
        let busy = loop.connectionsByAddress[state.address, default: []].filter {
            $0 !== state && $0.cutBecause == nil && $0.request != nil
        }
        return busy.count >= configuration.connectionLimitPerAddress
    }

    /// Forgets a closed connection.
    func release(_ state: ConnectionState) {
        var open = loop.connectionsByAddress[state.address, default: []]
        open.removeAll { $0 === state }
        loop.connectionsByAddress[state.address] = open.isEmpty ? nil : open
    }

    // MARK: Work

    /// Runs the service for `context` in a task, then resumes `connection`.
    func dispatch(_ context: RequestContext, connection: ConnectionHandle) {
        let request = context.request
        // The task has the request now; what the context held is let go when it completes.
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
