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
/// A request or connection that ended before its headers were in gets a line with `id=-`,
/// `method=-` and `path=-`: cut off (`end=header-timeout`), closed by the client, or refused
/// by libmicrohttpd itself with its own status (`status=431 … end=libmicrohttpd`: headers past
/// its memory for the connection). Every value is escaped, so a client cannot forge a line.
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
        if context.clientGone {
            fields[4].1 = "-"
            fields[6].1 = "0"
        }
        if let reason = context.closedBecause ?? Self.reason(termination) { fields.append(("end", reason)) }
        text = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    /// Why a request ended without an answer, from libmicrohttpd's code; nil when it ended
    /// well.
    static func reason(_ termination: MHD_RequestTerminationCode) -> String? {
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: nil
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "shutdown"
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: "client-abort"
        default: "error"
        }
    }

    /// The line of a connection cut off before its headers were in.
    init(cutConnectionAfter elapsed: Duration, reason: String, now: Date = Date()) {
        self.init(headersNeverIn: elapsed, status: nil, reason: reason, now: now)
    }

    /// The line of a request whose headers never reached the server: cut off, closed, or
    /// answered by libmicrohttpd itself with `status` (431 for headers past its memory).
    init(headersNeverIn elapsed: Duration, status: Int?, reason: String?, now: Date = Date()) {
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        let end = reason.map { " end=\(Self.escaped($0, limit: 32))" } ?? ""
        text =
            "time=\(Self.timestamp(now)) id=- method=- path=- status=\(status.map(String.init) ?? "-") in=0 out=0 ms=\(milliseconds)\(end)"
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
