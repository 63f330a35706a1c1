import Foundation

/// The server's listening TCP socket, bound and listening, created before libmicrohttpd
/// takes it (`.LISTEN_SOCKET`) so that a bind failure is reported with the
/// system's own reason, and a port of 0 is resolved to the one the system chose.
struct ListeningSocket {
    /// The socket's descriptor; libmicrohttpd owns it once the daemon started.
    let descriptor: Int32
    /// The port bound.
    let port: UInt16

    /// Binds `host`:`port` (a numeric IPv4 or IPv6 address, or `localhost`) and listens.
    ///
    /// - Throws: `ServerError` naming the address and the system's reason.
    init(host: String, port: UInt16, backlog: Int32) throws(ServerError) {
        let address = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, address, &ipv4.sin_addr) == 1 {
            family = AF_INET
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, address, &ipv6.sin6_addr) == 1 {
            family = AF_INET6
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
        } else {
            throw ServerError("'\(host)' is not an IPv4 or IPv6 address (e.g. 127.0.0.1, 0.0.0.0, ::1 or ::)")
        }
        let shown = family == AF_INET6 ? "[\(address)]:\(port)" : "\(address):\(port)"
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError("cannot listen on \(shown): \(Self.reason())") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET {
            bound = withUnsafePointer(to: &ipv4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            bound = withUnsafePointer(to: &ipv6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let reason = Self.reason()
            close(descriptor)
            throw ServerError("cannot listen on \(shown): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        var boundPort = port
        if named == 0 {
            boundPort = withUnsafePointer(to: &storage) { pointer in
                family == AF_INET
                    ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                    : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        }
        self.descriptor = descriptor
        self.port = boundPort
    }

    /// The system's description of `errno`.
    static func reason() -> String {
        String(cString: strerror(errno))
    }
}
