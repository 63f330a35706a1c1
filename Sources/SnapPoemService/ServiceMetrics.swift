import Foundation
import Synchronization

/// The service's counters, written in the Prometheus text format (version 0.0.4) at
/// `GET /metrics`: requests by route and status, uploaded bytes, images being recognised,
/// the queue's depth, and a histogram of recognition times.
final class ServiceMetrics: Sendable {
    /// The routes requests are counted under; any other path counts as `other`, so that the
    /// number of series stays bounded whatever clients ask for.
    static let routes: Set<String> = ["/", "/note", "/v1/poems", "/healthz", "/readyz", "/metrics", "/openapi.json"]
    /// Upper bounds of the recognition-time buckets, in seconds.
    static let bucketBounds: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var uploadedBytes = 0
        var imagesInFlight = 0
        var bucketCounts = [Int](repeating: 0, count: ServiceMetrics.bucketBounds.count)
        var recognitions = 0
        var recognitionSeconds = 0.0
        var timedOut = 0
        /// A running mean of recognition times, for `Retry-After`.
        var meanSeconds = 2.0
    }

    private struct RequestKey: Hashable, Comparable {
        var route: String
        var status: Int

        static func < (a: RequestKey, b: RequestKey) -> Bool { (a.route, a.status) < (b.route, b.status) }
    }

    private let state = Mutex(State())

    /// Counts one answered request.
    func recordResponse(path: String, status: Int, uploadedBytes: Int) {
        let route = Self.routes.contains(path) ? path : "other"
        state.withLock {
            $0.requests[RequestKey(route: route, status: status), default: 0] += 1
            $0.uploadedBytes += uploadedBytes
        }
    }

    /// Counts an image entering recognition.
    func imageStarted() {
        state.withLock { $0.imagesInFlight += 1 }
    }

    /// Counts an image leaving recognition after `seconds` (decoding to personalisation).
    func imageFinished(seconds: Double, timedOut: Bool) {
        state.withLock { state in
            state.imagesInFlight -= 1
            state.recognitions += 1
            state.recognitionSeconds += seconds
            if timedOut { state.timedOut += 1 }
            for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound {
                state.bucketCounts[index] += 1
            }
            state.meanSeconds = state.meanSeconds * 0.8 + seconds * 0.2
        }
    }

    /// Images being recognised now.
    var imagesInFlight: Int { state.withLock { $0.imagesInFlight } }

    /// A running mean of recognition times, in seconds.
    var meanRecognitionSeconds: Double { state.withLock { $0.meanSeconds } }

    /// The metrics in the Prometheus text format.
    func render(
        queueDepth: Int, queueLimit: Int, workers: Int, busyWorkers: Int, stoppingWorkers: Int, ready: Bool, imagePixelLimit: Int
    ) -> String {
        let state = self.state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for sample in samples { lines.append("\(name)\(sample.labels) \(sample.value)") }
        }
        metric(
            "snap_poem_http_requests_total", "counter", "HTTP requests answered, by route and status code.",
            state.requests.sorted { $0.key < $1.key }.map { ("{route=\"\($0.key.route)\",code=\"\($0.key.status)\"}", "\($0.value)") })
        metric("snap_poem_upload_bytes_total", "counter", "Request body bytes received.", [("", "\(state.uploadedBytes)")])
        metric(
            "snap_poem_images_in_flight", "gauge", "Images being decoded, prepared or recognised now.", [("", "\(state.imagesInFlight)")])
        metric("snap_poem_queue_depth", "gauge", "Requests waiting for a free engine.", [("", "\(queueDepth)")])
        metric(
            "snap_poem_queue_limit", "gauge", "How many requests may wait before new ones are refused with 503.", [("", "\(queueLimit)")])
        metric("snap_poem_workers", "gauge", "Recognition workers (one Tesseract engine each).", [("", "\(workers)")])
        metric(
            "snap_poem_workers_busy", "gauge", "Workers not free: reading an image, or stopping Tesseract after their answer.",
            [("", "\(busyWorkers)")])
        metric(
            "snap_poem_workers_stopping", "gauge",
            "Workers whose request was answered (a time limit, a cancellation) while Tesseract still runs; free once it stops.",
            [("", "\(stoppingWorkers)")])
        metric(
            "snap_poem_image_pixels_limit", "gauge", "The most pixels an image may declare (from the memory budget); larger ones get 422.",
            [("", "\(imagePixelLimit)")])
        metric(
            "snap_poem_ready", "gauge", "1 when the service takes new images (engines loaded, queue not full, not stopping).",
            [("", ready ? "1" : "0")])
        metric(
            "snap_poem_recognitions_timed_out_total", "counter", "Images whose recognition the time limit stopped.",
            [("", "\(state.timedOut)")])
        var buckets: [(String, String)] = []
        var cumulative = 0
        for (index, bound) in Self.bucketBounds.enumerated() {
            cumulative = state.bucketCounts[index]
            buckets.append(("_bucket{le=\"\(Self.number(bound))\"}", "\(cumulative)"))
        }
        buckets.append(("_bucket{le=\"+Inf\"}", "\(state.recognitions)"))
        buckets.append(("_sum", Self.number(state.recognitionSeconds)))
        buckets.append(("_count", "\(state.recognitions)"))
        lines.append("# HELP snap_poem_recognition_seconds Time from decoding an upload to its personalised poem.")
        lines.append("# TYPE snap_poem_recognition_seconds histogram")
        for (suffix, value) in buckets { lines.append("snap_poem_recognition_seconds\(suffix) \(value)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number as Prometheus writes it: `0.25`, `2`, `13.518`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.6g", value)
    }
}
