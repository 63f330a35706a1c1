import Foundation

/// An HTTP response: status, headers and the whole body. The server adds `Date`,
/// `Content-Length` and the connection headers.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The headers in order.
    public var headers: [HTTPField]
    /// The body.
    public var body: Data

    /// The most bytes of headers an answer carries (names, values and separators): the
    /// service's own headers stay far below it, and lists from a request (the FINDs that
    /// matched nothing) are cut to fit. The server builds headers in libmicrohttpd's
    /// per-connection memory (`ServerConfiguration.connectionMemoryBytes`), where headers
    /// that do not fit would leave the client without any answer.
    public static let maximumHeaderBytes = 16 << 10

    /// Creates a response.
    public init(status: Int, headers: [HTTPField] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets a header, replacing any earlier value.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append(HTTPField(name: name, value: value))
    }

    /// The body as UTF-8 text (for tests and logs of the service's own texts).
    public var text: String { String(decoding: body, as: UTF8.self) }
}
