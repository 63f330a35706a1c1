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

    /// No request under way (none yet, or between two), and not cut off: closing it loses
    /// nothing that was sent whole.
    var isIdle: Bool { request == nil && cutBecause == nil }

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
