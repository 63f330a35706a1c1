import CMicroHTTPD
import Foundation

/// The one line logged per request, in logfmt:
///
/// ```
/// time=2026-12-01T10:15:02.481Z id=6f1c2b0e9a4d7e31 method=POST path=/v1/poems status=200 in=54179 out=1893 ms=1532
/// ```
///
/// Only the path is logged, never the query (it holds the names) nor anything of the body.
/// A request that ended without an answer has `status=-` and `end=` with the reason
/// (`client-abort`, `client-gone` (it hung up while its poem was being read; the work was
/// cancelled), `timeout` (idle), `header-timeout`, `request-timeout`, `shutdown`, `error`).
/// A connection cut off before its headers were in gets a line of its own, with `id=-`,
/// `method=-` and `path=-`. Every value is escaped, so a client cannot forge a line.
struct RequestLogLine {
    let text: String

    init(context: RequestContext, termination: MHD_RequestTerminationCode, now: Date = Date()) {
        let elapsed = ContinuousClock.now - context.start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        var fields = [
            ("time", Self.timestamp(now)), ("id", context.id), ("method", Self.escaped(context.method, limit: 16)),
            ("path", Self.escaped(context.path, limit: 200)), ("status", context.status.map(String.init) ?? "-"),
            ("in", "\(context.receivedBytes)"), ("out", "\(context.status == nil ? 0 : context.sentBytes)"), ("ms", "\(milliseconds)"),
        ]
        let end: String?
        if context.clientGone {
            fields[4].1 = "-"
            fields[6].1 = "0"
        }
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: end = nil
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: end = "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: end = "shutdown"
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: end = "client-abort"
        default: end = "error"
        }
        if let reason = context.closedBecause ?? end { fields.append(("end", reason)) }
        text = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    /// The line of a connection cut off before its headers were in.
    init(cutConnectionAfter elapsed: Duration, reason: String, now: Date = Date()) {
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        text =
            "time=\(Self.timestamp(now)) id=- method=- path=- status=- in=0 out=0 ms=\(milliseconds) end=\(Self.escaped(reason, limit: 32))"
    }

    /// Printable ASCII other than space, `"` and `\` is kept; anything else is written as
    /// `%XX` (UTF-8), and the value is cut at `limit` bytes.
    static func escaped(_ value: String, limit: Int) -> String {
        var output = ""
        for byte in value.utf8.prefix(limit) {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "%") {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        if value.utf8.count > limit { output += "…" }
        return output.isEmpty ? "-" : output
    }

    /// ISO 8601 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
