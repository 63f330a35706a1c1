import Synchronization

/// The server's own counters, added to the service's at `GET /metrics`: connections and the
/// memory they may hold, request bodies held, connections cut off, requests abandoned by their clients, refused
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
    /// Connections without a request under way closed to make room: past their address's
    /// share of connections, in the reserve of places, or past the connection memory budget.
    let evicted = Atomic<Int>(0)
    /// The memory the open connections may hold, as `ConnectionState.cost` counts it.
    let connectionBytes = Atomic<Int>(0)
    /// Requests whose client hung up while the service worked on them (their work cancelled).
    let abandoned = Atomic<Int>(0)
    /// Uploads refused because the body budget, or the address's share of it, was spent.
    let refusedUploads = Atomic<Int>(0)

    /// The lines, in the Prometheus text format.
    func render(bufferedBytes: Int, bufferedLimit: Int, connectionLimitBytes: Int, droppedLogLines: Int) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Int)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric("snap_poem_connections_open", "gauge", "Client connections open now.", [("", connectionsOpen.load(ordering: .relaxed))])
        metric(
            "snap_poem_connection_memory_bytes", "gauge", "Memory the open connections may hold, as the connection budget counts it.",
            [("", connectionBytes.load(ordering: .relaxed))])
        metric(
            "snap_poem_connection_memory_limit_bytes", "gauge",
            "The connection budget; past it connections without a request under way are closed, most memory first.",
            [("", connectionLimitBytes)])
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
            "Connections without a request under way closed to make room: past their address's share, in the reserve, or past the connection budget.",
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
