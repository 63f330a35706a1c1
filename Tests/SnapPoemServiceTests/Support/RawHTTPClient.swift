import Foundation
import Synchronization

/// An HTTP response read off the wire.
struct WireResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A minimal HTTP/1.1 client over a plain socket, so that tests control exactly what is sent
/// and when (a declared length without its body, a trickle, a silence), and see what the
/// server answers byte for byte. Every call runs on a thread of its own and waits without
/// blocking Swift's cooperative threads.
enum RawHTTPClient {
    enum Failure: Error, CustomStringConvertible {
        case connect(String), send(String), receive(String), malformed(String)

        var description: String {
            switch self {
            case .connect(let reason): "connect: \(reason)"
            case .send(let reason): "send: \(reason)"
            case .receive(let reason): "receive: \(reason)"
            case .malformed(let text): "malformed response: \(text.prefix(200))"
            }
        }
    }

    /// `GET target`.
    static func get(port: UInt16, _ target: String) async throws -> WireResponse {
        try await exchange(port: port, request: Data("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    }

    /// `POST target` with `body`.
    static func post(
        port: UInt16, _ target: String, contentType: String?, body: Data, extraHeaders: [String] = [], timeout: Int = 300,
        from source: String? = nil
    ) async throws -> WireResponse {
        var head = "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for line in extraHeaders { head += line + "\r\n" }
        return try await exchange(port: port, request: Data((head + "\r\n").utf8) + body, timeout: timeout, from: source)
    }

    /// Sends `request` whole, then reads the answer until the server closes.
    static func exchange(port: UInt16, request: Data, timeout: Int = 300, from source: String? = nil) async throws -> WireResponse {
        try await onThread {
            let socket = try connect(port: port, timeout: timeout, from: source)
            defer { close(socket) }
            try send(request, on: socket)
            return try parse(try readToEnd(socket))
        }
    }

    /// Fetches `/metrics` every 20 ms until `seen` holds for its text (true), or `within` has
    /// passed (false). The whole wait runs on a thread of its own: between two fetches it
    /// needs no cooperative thread, which a test process running every suite at once (under a
    /// sanitizer, on a loaded machine) can withhold for minutes, long enough for a state that
    /// lasts seconds to come and go unseen.
    static func pollMetrics(port: UInt16, within: Duration, until seen: @escaping @Sendable (String) -> Bool) async throws -> Bool {
        try await onThread {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: within)
            let request = Data("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            while clock.now < deadline {
                let socket = try connect(port: port, timeout: 60)
                defer { close(socket) }
                try send(request, on: socket)
                if seen(try parse(try readToEnd(socket)).text) { return true }
                usleep(20_000)
            }
            return false
        }
    }

    /// Runs blocking socket work on a thread of its own.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// A connected socket to 127.0.0.1:`port` with send and receive timeouts; from
    /// `source` (another loopback address, such as 127.0.0.2, to stand for another client)
    /// when given.
    static func connect(port: UInt16, timeout: Int, from source: String? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure.connect(String(cString: strerror(errno))) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(socket)
                throw Failure.connect("bind \(source): \(reason)")
            }
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure.connect(reason)
        }
        return socket
    }

    /// Sends every byte of `data`.
    static func send(_ data: Data, on socket: Int32) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw Failure.send(String(cString: strerror(errno))) }
                offset += sent
            }
        }
    }

    /// Reads until the server closes the connection (or resets it after its answer).
    static func readToEnd(_ socket: Int32) throws -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(buffer, count: count)
            } else if count == 0 || (errno == ECONNRESET && !received.isEmpty) {
                return received
            } else {
                throw Failure.receive(String(cString: strerror(errno)))
            }
        }
    }

    /// Splits a response into status, headers and body (skipping `100 Continue`).
    static func parse(_ data: Data) throws -> WireResponse {
        var rest = data
        while true {
            guard let end = rest.firstRange(of: Data("\r\n\r\n".utf8)) else {
                throw Failure.malformed(String(decoding: data, as: UTF8.self))
            }
            let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            let body = rest[end.upperBound...]
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(head) }
            if status == 100 {
                rest = Data(body)
                continue
            }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var response = WireResponse(status: status, headers: headers, body: Data(body))
            if let length = response.header("Content-Length").flatMap(Int.init), response.body.count > length {
                response.body = response.body.prefix(length)
            }
            return response
        }
    }
}
