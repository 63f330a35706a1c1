import Foundation

/// An HTTP request as the service sees it: already framed and parsed by the server
/// (libmicrohttpd), or built directly by a caller that has no socket (tests, other hosts).
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, `HEAD`, …
    public var method: String
    /// The path without the query, percent-decoded, e.g. `/v1/poems`.
    public var path: String
    /// The query's parameters in order, decoded (`+` as a space); a name without `=` has an
    /// empty value.
    public var query: [HTTPField]
    /// The headers in order.
    public var headers: [HTTPField]
    /// The body as received, when it was not a form; empty otherwise.
    public var body: Data
    /// The parts of a `multipart/form-data` body, when it was one.
    public var form: [FormPart]?
    /// The request's identifier, echoed as `X-Request-Id` and in the log line.
    public var id: String
    /// Why the query cannot be taken as text, when it cannot: a name or value that decodes
    /// to a NUL byte (which a C string would cut short) or to bytes that are not UTF-8
    /// (which would become U+FFFD). The service answers 400 before anything else.
    public var queryProblem: String?

    /// Creates a request from parts already parsed.
    public init(
        method: String, path: String, query: [HTTPField] = [], headers: [HTTPField] = [], body: Data = Data(),
        form: [FormPart]? = nil, id: String = HTTPRequest.newID(), queryProblem: String? = nil
    ) {
        self.queryProblem = queryProblem
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.form = form
        self.id = id
    }

    /// Creates a request from a request target such as `/v1/poems?replace=Lenore%3DAlex`,
    /// decoding the query as a browser's form encoding (`+` is a space).
    public init(method: String, target: String, headers: [HTTPField] = [], body: Data = Data(), form: [FormPart]? = nil) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        var query: [HTTPField] = []
        var problem: String?
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                func decoded(_ text: Substring) -> String {
                    let spaced = text.replacingOccurrences(of: "+", with: " ")
                    guard let text = spaced.removingPercentEncoding else {
                        problem = problem ?? Self.queryProblem(name: String(halves[0]), notUTF8: true)
                        return spaced
                    }
                    if text.utf8.contains(0) { problem = problem ?? Self.queryProblem(name: String(halves[0]), notUTF8: false) }
                    return text
                }
                query.append(HTTPField(name: decoded(halves[0]), value: halves.count > 1 ? decoded(halves[1]) : ""))
            }
        }
        self.init(
            method: method, path: path.removingPercentEncoding ?? path, query: query, headers: headers, body: body, form: form,
            queryProblem: problem)
    }

    /// The `queryProblem` of the query parameter `name`: it holds a NUL byte, or bytes that
    /// are not UTF-8.
    public static func queryProblem(name: String, notUTF8: Bool) -> String {
        let shown = name.unicodeScalars.prefix(40).map { $0 == "\0" ? "\\0" : String($0) }.joined()
        return notUTF8
            ? "the query parameter '\(shown)' is not UTF-8 text" : "the query parameter '\(shown)' holds a NUL byte (%00)"
    }

    /// The fields of an `application/x-www-form-urlencoded` body, in order: `+` is a space,
    /// percent escapes are UTF-8 bytes; a name without `=` has an empty value. Nil when the
    /// body or an escape is not UTF-8.
    static func formFields(urlEncoded body: Data) -> [HTTPField]? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        var fields: [HTTPField] = []
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = halves[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                let value = (halves.count > 1 ? halves[1] : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return nil }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    /// The first value of a header, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The media type of the body, lowercased, without parameters: `image/png`.
    public var mediaType: String? {
        header("Content-Type").map {
            ($0.split(separator: ";").first.map(String.init) ?? $0).trimmingCharacters(in: .whitespaces).lowercased()
        }
    }

    /// A fresh identifier: 16 random hexadecimal digits.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    /// The identifier a client or load balancer sent in `X-Request-Id`, if it is a plain token
    /// (1–64 letters, digits, `.`, `_`, `-`); anything else is replaced, so that a log line can
    /// never be forged through it.
    public static func acceptedID(_ sent: String?) -> String? {
        guard let sent, (1...64).contains(sent.utf8.count),
            sent.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            )
        else { return nil }
        return sent
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
