import Synchronization

/// The server's own counters, added to the service's at `GET /metrics`: connections,
/// request bodies held, connections cut off, requests abandoned by their clients, refused
/// uploads and log lines dropped.
final class ServerMetrics: Sendable {
    /// Connections open now.
    let connectionsOpen = Atomic<Int>(0)
    /// Request body bytes held now (arriving, waiting or being read).
    let bufferedBytes = Atomic<Int>(0)
    /// Connections cut off because their headers took longer than `--header-timeout`.
    let headerTimeouts = Atomic<Int>(0)
    /// Connections cut off because their request took longer than `--request-timeout`.
    let requestTimeouts = Atomic<Int>(0)
    /// Requests cut off because their body stopped arriving for `--idle-timeout`.
    let stalledUploads = Atomic<Int>(0)
    /// Idle connections closed to make room for a new one from the same address, past its
    /// share of connections.
    let evicted = Atomic<Int>(0)
    /// Requests whose client hung up while the service worked on them (their work cancelled).
    let abandoned = Atomic<Int>(0)
    /// Uploads refused because the body budget, or the address's share of it, was spent.
    let refusedUploads = Atomic<Int>(0)

    /// The lines, in the Prometheus text format.
    func render(bufferedBytes: Int, bufferedLimit: Int, droppedLogLines: Int) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Int)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric("snap_poem_connections_open", "gauge", "Client connections open now.", [("", connectionsOpen.load(ordering: .relaxed))])
        metric("snap_poem_buffered_body_bytes", "gauge", "Request body bytes held now, over all connections.", [("", bufferedBytes)])
        metric(
            "snap_poem_buffered_body_limit_bytes", "gauge", "The most request body bytes held at once; past it uploads get 503.",
            [("", bufferedLimit)])
        metric(
            "snap_poem_connections_cut_total", "counter", "Connections cut off for arriving too slowly, by deadline.",
            [
                ("{deadline=\"header\"}", headerTimeouts.load(ordering: .relaxed)),
                ("{deadline=\"request\"}", requestTimeouts.load(ordering: .relaxed)),
                ("{deadline=\"idle\"}", stalledUploads.load(ordering: .relaxed)),
            ])
        metric(
            "snap_poem_connections_evicted_total", "counter",
            "Idle connections closed to let in a new one from the same address, which held its share of connections.",
            [("", evicted.load(ordering: .relaxed))])
        metric(
            "snap_poem_requests_abandoned_total", "counter", "Requests whose client hung up before the answer; their work was cancelled.",
            [("", abandoned.load(ordering: .relaxed))])
        metric(
            "snap_poem_uploads_refused_total", "counter", "Uploads refused before reading because the body budget was spent.",
            [("", refusedUploads.load(ordering: .relaxed))])
        metric(
            "snap_poem_log_lines_dropped_total", "counter", "Log lines dropped because standard error's reader did not keep up.",
            [("", droppedLogLines)])
        return lines.joined(separator: "\n") + "\n"
    }
}
