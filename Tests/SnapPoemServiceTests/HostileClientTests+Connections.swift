import Foundation
import SnapPoemTestSupport
import Synchronization
import Testing

/// Connections that hold places without sending a request, against the real server: slow
/// clients must not keep a health probe or an honest client out, nor hold more memory than
/// the connection budget. In `HostileClientTests`, so that they run one at a time, alone.
extension HostileClientTests {
    @Test(
        "64 connections trickling their headers from four addresses (each address's share): /healthz within 3 s and an honest reading served while they hold; healthy once they close"
    )
    func tricklingHeaders() async throws {
        // A header timeout longer than the test, so that the 64 hold their places throughout.
        try await ServerProcess.with(["--jobs", "1", "--header-timeout", "300"]) { server in
            let port = server.port
            // The engine loads after the server listens: its memory is not the connections'.
            try await Self.waitFor("snap_poem_ready 1", port: port)
            let before = server.memory.resident
            let trickle = try SlowClients(
                port: port, addresses: (2...5).map { "127.0.0.\($0)" }, perAddress: 16, opening: "GET /healthz HTTP/1.1\r\nX-Trickle: ")
            defer { trickle.stop() }
            try await Self.waitForOpenConnections(port: port, atLeast: 64)

            let (answered, took) = try await Self.healthAnswered(port: port, within: .seconds(3))
            #expect(answered, "/healthz took \(took) while 64 connections trickled their headers")
            // Before the reading, whose memory comes back to the allocator but not all to the system.
            let held = server.memory.resident - before
            // Under AddressSanitizer the resident size grows by its quarantine of freed memory
            // and its redzones, which are not the server's: there only the server's own counts
            // (the metrics) are checked.
            if TestSanitizer.name != "address" { #expect(held < 4 << 20, "64 trickling connections held \(held >> 10) KiB") }
            let reading = try await RawHTTPClient.post(
                port: port, "/v1/poems", contentType: "image/png", body: try Fixtures.sampleData(Fixtures.stanza), timeout: 60,
                from: "127.0.0.9")
            #expect(reading.status == 200, "\(reading.status) \(reading.text)")
            #expect(reading.text.contains("Lenore"), "\(reading.text)")
            // The 64 were there all along: the server closed none of them to let the others in.
            #expect(trickle.openCount() == 64, "the server closed trickling connections")
            #expect(trickle.bytesSent() >= 64, "the clients trickled nothing")

            trickle.stop()
            try await Self.waitForOpenConnections(port: port, atMost: 1)
            let (again, tookAgain) = try await Self.healthAnswered(port: port, within: .seconds(3))
            #expect(again, "/healthz took \(tookAgain) once the trickling connections had closed")
            let metrics = try await RawHTTPClient.exchange(
                port: port, request: Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), timeout: 10
            ).text
            #expect(Self.gauge("snap_poem_connections_evicted_total", in: metrics) == 0, "\(metrics)")
        }
    }

    @Test(
        "Connections past the reserve close the most expendable one: 300 silent connections from 20 addresses with --max-connections 100 leave /healthz and an honest reading their way in"
    )
    func reserveKeptFree() async throws {
        try await ServerProcess.with(["--jobs", "1", "--max-connections", "100", "--header-timeout", "300"]) { server in
            let port = server.port
            let silent = try SlowClients(port: port, addresses: (10..<30).map { "127.0.0.\($0)" }, perAddress: 15, opening: nil)
            defer { silent.stop() }
            try await Self.waitForOpenConnections(port: port, atLeast: 50)
            let (answered, took) = try await Self.healthAnswered(port: port, within: .seconds(3))
            #expect(answered, "/healthz took \(took) with 300 silent connections and 100 places")
            let reading = try await RawHTTPClient.post(
                port: port, "/v1/poems", contentType: "image/png", body: try Fixtures.sampleData(Fixtures.stanza), timeout: 60,
                from: "127.0.0.9")
            #expect(reading.status == 200, "\(reading.status) \(reading.text)")
            let metrics = try await RawHTTPClient.exchange(
                port: port, request: Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), timeout: 10
            ).text
            // 100 places, 16 of them kept free: at most 84 silent ones stay.
            #expect((Self.gauge("snap_poem_connections_open", in: metrics) ?? .max) <= 85, "\(metrics)")
            #expect((Self.gauge("snap_poem_connections_evicted_total", in: metrics) ?? 0) >= 300 - 84, "\(metrics)")
        }
    }

    @Test(
        "Connections holding 60 KB of unfinished headers each are closed, most memory first, once they pass the connection budget; /healthz and an honest reading are served"
    )
    func connectionBudget() async throws {
        // 512 MB: a connection budget of 16 MB, a quarter of what the 300 below would hold.
        try await ServerProcess.with(["--jobs", "1", "--memory-mb", "512", "--header-timeout", "300"]) { server in
            let port = server.port
            let before = server.memory.resident
            let heavy = try SlowClients(
                port: port, addresses: (10..<30).map { "127.0.0.\($0)" }, perAddress: 15,
                opening: "GET /healthz HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 60_000))
            defer { heavy.stop() }
            let limit = try await Self.waitForMetric(port: port, "snap_poem_connection_memory_limit_bytes") { $0 > 0 }
            #expect(limit == 16 << 20)
            // As many places as the budget holds of light connections (8 KB each).
            #expect(server.log.contains("2048 connections (16 per address) in 16 MB"), "\(server.log)")
            // Measured every 250 ms: wait until the server has closed what passes the budget.
            _ = try await Self.waitForMetric(port: port, "snap_poem_connections_evicted_total") { $0 >= 300 - limit / (64 << 10) }
            let (answered, took) = try await Self.healthAnswered(port: port, within: .seconds(3))
            #expect(answered, "/healthz took \(took)")
            let reading = try await RawHTTPClient.post(
                port: port, "/v1/poems", contentType: "image/png", body: try Fixtures.sampleData(Fixtures.stanza), timeout: 60,
                from: "127.0.0.9")
            #expect(reading.status == 200, "\(reading.status) \(reading.text)")
            let metrics = try await RawHTTPClient.exchange(
                port: port, request: Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), timeout: 10
            ).text
            let counted = try #require(Self.gauge("snap_poem_connection_memory_bytes", in: metrics))
            #expect(counted <= limit, "\(metrics)")
            #expect(heavy.openCount() <= limit / (64 << 10), "more connections open than the budget holds")
            // What the 300 sent is 18 MB; the server holds at most the budget of it (and the
            // reading's own memory, which comes back to the allocator but not all to the system).
            let held = server.memory.resident - before
            // Not under AddressSanitizer, whose quarantine and redzones are in the resident size.
            if TestSanitizer.name != "address" { #expect(held < limit + (48 << 20), "held \(held >> 20) MB") }
        }
    }

    @Test(
        "Uploads under way that fill the connection budget, none of which can be closed: other requests get 503 busy, /healthz 200; served again once they go"
    )
    func connectionBudgetSpentByRequests() async throws {
        // 512 MB: a connection budget of 16 MB, 124 connections of 132 KB. Each of the 140 below
        // declares 150 KB and sends 140 KB of it (past libmicrohttpd's 128 KB for it), then
        // nothing: a request under way, which is never closed to make room.
        try await ServerProcess.with(["--jobs", "1", "--memory-mb", "512", "--idle-timeout", "300"]) { server in
            let port = server.port
            let head = "POST /v1/poems HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 150000\r\n\r\n"
            let uploads = try SlowClients(
                port: port, addresses: (10..<20).map { "127.0.0.\($0)" }, perAddress: 14,
                opening: head + String(repeating: "a", count: 140_000), trickle: false)
            defer { uploads.stop() }
            let limit = 16 << 20
            _ = try await Self.waitForMetric(port: port, "snap_poem_connection_memory_bytes") { $0 > limit }
            let document = try await RawHTTPClient.exchange(
                port: port, request: Data("GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 10,
                from: "127.0.0.9")
            #expect(document.status == 503, "\(document.status) \(document.text.prefix(200))")
            #expect(
                document.text.contains("\"busy\"") && document.text.contains("all the memory they may"), "\(document.text.prefix(300))")
            #expect(document.header("Retry-After") != nil)
            let (answered, took) = try await Self.healthAnswered(port: port, within: .seconds(3))
            #expect(answered, "/healthz took \(took)")
            // None was closed to make room; those whose headers came once the budget was spent
            // were answered 503 and closed, so at least what the budget holds (124) are open.
            let metrics = try await RawHTTPClient.exchange(
                port: port, request: Data("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 10
            ).text
            #expect(Self.gauge("snap_poem_connections_evicted_total", in: metrics) == 0, "\(metrics)")
            #expect(uploads.openCount() >= limit / (132 << 10), "uploads under way were closed")

            uploads.stop()
            _ = try await Self.waitForMetric(port: port, "snap_poem_connection_memory_bytes") { $0 < limit / 2 }
            // Measured every 250 ms: the refusal ends at the next measure (looked for up to 5 s).
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(5))
            var again = WireResponse(status: 0, headers: [], body: Data())
            while clock.now < deadline {
                again = try await RawHTTPClient.exchange(
                    port: port, request: Data("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 10,
                    from: "127.0.0.9")
                if again.status == 200 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(again.status == 200, "\(again.status) \(again.text.prefix(200))")
        }
    }

    /// Waits (up to 30 s) until `/metrics` says at least `count` connections are open.
    static func waitForOpenConnections(port: UInt16, atLeast count: Int) async throws {
        _ = try await waitForMetric(port: port, "snap_poem_connections_open") { $0 >= count }
    }

    /// Waits (up to 30 s) until `/metrics` says at most `count` connections are open (the one
    /// asking counts).
    static func waitForOpenConnections(port: UInt16, atMost count: Int) async throws {
        _ = try await waitForMetric(port: port, "snap_poem_connections_open") { $0 <= count }
    }

    /// Asks `/metrics` every 50 ms (for up to 30 s) until the unlabelled metric `name`
    /// satisfies `condition`; returns its value then, or records an issue and returns the last.
    static func waitForMetric(port: UInt16, _ name: String, _ condition: (Int) -> Bool) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        var last = -1
        while clock.now < deadline {
            // Each look bounded: a server whose places are all held answers nobody.
            let request = Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            if let metrics = try? await RawHTTPClient.exchange(port: port, request: request, timeout: 5).text {
                last = gauge(name, in: metrics) ?? -1
                if condition(last) { return last }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(name) stayed at \(last) for 30 s")
        return last
    }
}

/// Clients that connect and then hold their connection: each sends `opening` (or nothing),
/// then (when asked to trickle) one more byte every second, never ending its headers, on a thread of their own, until
/// `stop()` closes them all.
final class SlowClients: Sendable {
    private let sockets: [Int32]
    private let stopping = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let sent = Atomic<Int>(0)
    private let exited = Atomic<Bool>(false)

    /// Opens `perAddress` connections from each of `addresses` to 127.0.0.1:`port`; with
    /// `trickle`, each then sends a byte a second.
    init(port: UInt16, addresses: [String], perAddress: Int, opening: String?, trickle: Bool = true) throws {
        var opened: [Int32] = []
        do {
            for address in addresses {
                for _ in 0..<perAddress {
                    let socket = try RawHTTPClient.connect(port: port, timeout: 30, from: address)
                    opened.append(socket)
                    // A connection the server answers and closes at once (a refusal from the
                    // headers) fails the rest of the send: it is simply not open (`openCount()`).
                    if let opening { try? RawHTTPClient.send(Data(opening.utf8), on: socket) }
                }
            }
        } catch {
            opened.forEach { close($0) }
            throw error
        }
        sockets = opened
        guard opening != nil, trickle else {
            exited.store(true, ordering: .relaxed)
            return
        }
        Thread.detachNewThread { [self] in
            defer { exited.store(true, ordering: .relaxed) }
            while !stopping.load(ordering: .relaxed) {
                for socket in sockets where Glibc.send(socket, "a", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) == 1 {
                    sent.add(1, ordering: .relaxed)
                }
                for _ in 0..<20 where !stopping.load(ordering: .relaxed) { usleep(50_000) }
            }
        }
    }

    /// The bytes trickled so far, over all connections.
    func bytesSent() -> Int { sent.load(ordering: .relaxed) }

    /// The connections the server has not closed.
    func openCount() -> Int {
        var byte: UInt8 = 0
        return sockets.count { socket in
            let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    /// Stops the trickle and closes every connection (once).
    func stop() {
        stopping.store(true, ordering: .relaxed)
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        // The thread sends no more before the descriptors go (another socket may take one).
        for _ in 0..<200 where !exited.load(ordering: .relaxed) { usleep(10_000) }
        sockets.forEach { close($0) }
    }
}
