import CMicroHTTPD
import Foundation

/// One client connection, from its accept to its close: when its current request began to
/// arrive, which request it carries, and why the server cut it off. libmicrohttpd keeps a
/// retained pointer to it as the connection's socket context (`.NOTIFY_CONNECTION`).
///
/// Touched only on the server's loop thread (every libmicrohttpd callback and the
/// housekeeping between `MHD_run_wait` calls run there).
final class ConnectionState {
    /// libmicrohttpd's connection.
    let connection: OpaquePointer
    /// Its socket, for `shutdown` (cutting it off) and `poll` (noticing a client gone).
    let descriptor: Int32
    /// The client's address, numeric, for the per-address shares.
    let address: String
    /// When the current request began (the connection's start, or the end of the one before).
    var phaseStart = ContinuousClock.now
    /// Requests completed on this connection.
    var completedRequests = 0
    /// The request under way, from its headers to its completion.
    var request: RequestContext?
    /// Why the server cut the connection off (`header-timeout`, `request-timeout`,
    /// `evicted`).
    var cutBecause: String?

    /// The bytes the client has sent since it connected, as last measured
    /// (`snap_poem_bytes_received`); looked at only until its first request ends.
    var bytesReceived = 0

    /// No request under way (none yet, or between two), and not cut off: closing it loses
    /// nothing that was sent whole.
    var isIdle: Bool { request == nil && cutBecause == nil }

    /// The memory the connection may hold, as the connection budget counts it:
    /// `ServerConfiguration.connectionBaseBytes`, and of libmicrohttpd's memory for it the
    /// pages the client's bytes have filled, or all of it once a request has ended on it
    /// (libmicrohttpd clears the whole of it then, so every page is resident).
    var cost: Int {
        let whole = ServerConfiguration.connectionMemoryBytes
        let page = 4096
        let filled = completedRequests > 0 ? whole : min(whole, (bytesReceived + page - 1) / page * page)
        return ServerConfiguration.connectionBaseBytes + filled
    }

    /// Whether the connection's cost may still grow with what the client sends (its first
    /// request has not ended, and its bytes have not yet filled libmicrohttpd's memory).
    var costMayGrow: Bool {
        completedRequests == 0 && bytesReceived < ServerConfiguration.connectionMemoryBytes
    }

    /// Whether this connection is a better one to close than `other` to make room: the one
    /// that holds more memory, then the one waiting longer for its request.
    func isMoreExpendable(than other: ConnectionState) -> Bool {
        let (mine, theirs) = (cost, other.cost)
        return mine != theirs ? mine > theirs : phaseStart < other.phaseStart
    }

    init(connection: OpaquePointer, descriptor: Int32, address: String) {
        self.connection = connection
        self.descriptor = descriptor
        self.address = address
    }

    /// The numeric form of a socket address: `127.0.0.1`, `::1`; `-` when unknown.
    static func numeric(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "-" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func text(_ characters: [CChar]) -> String {
            String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var value = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &value, &buffer, socklen_t(buffer.count)) == nil ? "-" : text(buffer)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var value = ipv6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &value, &buffer, socklen_t(buffer.count)) == nil ? "-" : text(buffer)
            }
        default:
            return "-"
        }
    }
}
