import Foundation
import SnapPoem

/// How much memory the service may use, and where that figure came from: `--memory-mb`,
/// the control group's limit (systemd's `MemoryMax=`, a Kubernetes container's
/// `resources.limits.memory`), or the default.
public struct MemoryBudget: Sendable, Equatable, CustomStringConvertible {
    /// Where the figure came from.
    public enum Source: Sendable, Equatable {
        /// Given by the operator (`--memory-mb`).
        case given
        /// The limit of the control group the process runs in, read from this file.
        case controlGroup(String)
        /// No limit was found: `MemoryBudget.defaultBytes`.
        case fallback
    }

    /// The budget in bytes.
    public var bytes: Int
    /// Where it came from.
    public var source: Source

    /// The budget when nothing sets one: 1 GiB, what `deploy/snap-poem.service`
    /// (`MemoryMax=1G`) and `deploy/kubernetes-service.yaml` (`limits.memory: 1Gi`) allow.
    public static let defaultBytes = 1 << 30

    /// Creates a budget.
    public init(bytes: Int, source: Source = .given) {
        self.bytes = bytes
        self.source = source
    }

    /// The limit of this process's control group (v2 `memory.max`, v1
    /// `memory.limit_in_bytes`), or `defaultBytes` when there is none.
    public static func detect() -> MemoryBudget {
        for file in controlGroupLimitFiles() {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8), let limit = parseLimit(text) else { continue }
            return MemoryBudget(bytes: limit, source: .controlGroup(file))
        }
        return MemoryBudget(bytes: defaultBytes, source: .fallback)
    }

    /// A control group limit file's value in bytes; nil for `max` or a value too large to be
    /// a real limit (cgroup v1 writes about 2^63 for none).
    public static func parseLimit(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Int(value), bytes > 0, bytes < 1 << 50 else { return nil }
        return bytes
    }

    /// Where this process's memory limit may be written, most specific first.
    static func controlGroupLimitFiles() -> [String] {
        var files: [String] = []
        let membership = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0", fields[1].isEmpty {
                files.append("/sys/fs/cgroup\(path == "/" ? "" : path)/memory.max")
            } else if fields[1].split(separator: ",").contains("memory") {
                files.append("/sys/fs/cgroup/memory\(path == "/" ? "" : path)/memory.limit_in_bytes")
            }
        }
        // Inside a container the group is often mounted as the root.
        files += ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }
    }

    public var description: String {
        let megabytes = "\(bytes >> 20) MB"
        switch source {
        case .given: return "\(megabytes) (--memory-mb)"
        case .controlGroup(let file): return "\(megabytes) (the control group's limit, \(file))"
        case .fallback: return "\(megabytes) (the default; no control group limit found)"
        }
    }
}

/// What the service lets each piece of work hold, worked out from a `MemoryBudget` before
/// anything is accepted, so that the largest request the limits accept still fits:
///
/// ```
/// budget ≥ process + workers × engine memory           (all a worker may load)
///        + buffered request bodies                      (arriving or waiting, all connections)
///        + connections                                  (libmicrohttpd's memory for each)
///        + workers × (2 × upload + pixels × bytesPerPixel)   (the images being read)
///        + a tenth of the budget                         (headroom: allocator, stacks, answers)
/// ```
///
/// The constants were measured with a release build on the sample pages (a dense page of
/// text tiled to 18 and 41 megapixels, RGB, read at once by two engines): two engines
/// loaded take 88 MB; reading an image peaked at 9–13 bytes a pixel (decoding at 4,
/// preprocessing, Tesseract's own copies). An upload is held twice while it is read (the
/// form part and the decoder's copy).
public struct MemoryPlan: Sendable, Equatable {
    /// The process without engines.
    public static let processBytes = 24 << 20
    /// One loaded `eng+fra` engine with its working memory outside the image (any other
    /// language set is counted the same).
    public static let engineBytes = 48 << 20
    /// One French-only engine (`fra`), which reads French poems when the language is chosen:
    /// the `eng+fra` figure scaled by the tesseract command's peak resident memory with each
    /// model (29.7 MB with `fra`, 46.3 MB with `eng+fra`).
    public static let frenchEngineBytes = 28 << 20
    /// One orientation detector (Tesseract's `osd` model), loaded on a worker's first
    /// doubtful page.
    public static let orientationDetectorBytes = 34 << 20
    /// Peak bytes per pixel while one image is decoded, prepared and recognised
    /// (`ImageLimits.plannedBytesPerPixel`; an image whose decoder holds more is allowed
    /// proportionally fewer pixels).
    public static let bytesPerPixel = ImageLimits.plannedBytesPerPixel
    /// The smallest pixel limit worth serving with: a 2-megapixel photo.
    public static let smallestPixelLimit = 2_000_000

    /// The budget planned for.
    public let budget: MemoryBudget
    /// The most pixels one image may declare; larger ones are refused (422) from their
    /// header, before decoding.
    public let maxPixels: Int
    /// The most bytes of request bodies held at once over all connections (arriving or
    /// waiting for an engine); past it new uploads are refused (503) before they are read.
    public let bufferedBodyBytes: Int
    /// The most memory the open connections may hold at once (`ServerConfiguration`'s
    /// `connectionBudgetBytes`): a 32nd of the budget, at least 4 MiB. At 1 GiB, 32 MiB:
    /// 4,096 connections that have sent a few bytes of their headers (8 KiB each), or 248
    /// that hold all 128 KiB of libmicrohttpd's memory (kept alive after a request).
    public let connectionBytes: Int
    /// The largest request body.
    public let maxUploadBytes: Int
    /// Recognition workers.
    public let workers: Int
    /// The most memory one worker's engines may hold once loaded
    /// (`ServiceConfiguration.engineBytesPerWorker`).
    public let engineBytesPerWorker: Int

    /// Plans `budget` for `workers` workers whose engines hold at most
    /// `engineBytesPerWorker` each, and uploads of at most `maxUploadBytes`.
    ///
    /// Request bodies get an eighth of the budget, but room for at least two of the largest
    /// upload per worker; connections a 32nd; the images in work share what is left after the
    /// headroom.
    ///
    /// - Throws: `MemoryPlanError` when the budget cannot hold the engines, the bodies and an
    ///   image of `smallestPixelLimit` per worker.
    public init(
        budget: MemoryBudget, workers: Int, engineBytesPerWorker: Int = MemoryPlan.engineBytes, maxUploadBytes: Int
    ) throws(MemoryPlanError) {
        let workers = max(1, workers)
        let engineBytesPerWorker = max(Self.engineBytes, engineBytesPerWorker)
        self.budget = budget
        self.workers = workers
        self.engineBytesPerWorker = engineBytesPerWorker
        self.maxUploadBytes = maxUploadBytes
        bufferedBodyBytes = max(budget.bytes / 8, 2 * workers * maxUploadBytes)
        connectionBytes = max(4 << 20, budget.bytes / 32)
        let fixed = Self.processBytes + workers * engineBytesPerWorker + connectionBytes
        let headroom = budget.bytes / 10
        let perWorker = (budget.bytes - fixed - headroom - bufferedBodyBytes) / workers - 2 * maxUploadBytes
        let pixels = perWorker / Self.bytesPerPixel
        guard pixels >= Self.smallestPixelLimit else {
            let needed =
                fixed + bufferedBodyBytes + workers * (2 * maxUploadBytes + Self.smallestPixelLimit * Self.bytesPerPixel)
            throw MemoryPlanError(
                message:
                    "a memory budget of \(budget.bytes >> 20) MB is too small for \(workers) worker\(workers == 1 ? "" : "s") with their engines and uploads of \(maxUploadBytes >> 20) MB; it needs at least \((needed * 10 / 9) >> 20 + 1) MB (--memory-mb, --jobs, --max-upload-mb)"
            )
        }
        maxPixels = pixels
    }

    /// The most memory the plan lets the service hold: every piece at its bound.
    public var plannedPeakBytes: Int {
        Self.processBytes + workers * engineBytesPerWorker + bufferedBodyBytes + connectionBytes
            + workers * (2 * maxUploadBytes + maxPixels * Self.bytesPerPixel)
    }
}

/// Why a memory budget cannot be planned.
public struct MemoryPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: the budget, what it must hold, and the options that change it.
    public var message: String
    public var description: String { message }
}
