import Foundation

/// What became of one image of a batch, however it was read: the answer a worker process
/// sends back for a request (`WorkerMessage`), what the supervisor makes of a worker that
/// crashed or ran over its limit, and what a batch of one read in this process gives.
/// `OutcomeDelivery` turns it into an output file, a manifest line and what a person is told.
public struct ImageOutcome: Sendable, Equatable, Codable {
    /// How the image ended.
    public enum Status: Sendable, Equatable, Hashable, Codable {
        /// Read, and its document rendered.
        case ok
        /// Read until the time limit stopped recognition; the partial document was rendered.
        case timedOut
        /// Not read (`.input`: the file, its decoding, recognition, the worker) or its
        /// document or images not made or written (`.output`).
        case failed(ManifestEntry.Failure)
        /// Interrupted while it was being read; nothing was made of it.
        case cancelled

        /// The manifest's status for it.
        public var manifestStatus: ManifestEntry.Status {
            switch self {
            case .ok: .ok
            case .timedOut: .timedOut
            case .failed: .failed
            case .cancelled: .cancelled
            }
        }

        /// What it means for a front end's status: nil for `.ok`.
        public var category: Diagnostic.Category? {
            switch self {
            case .ok: nil
            case .timedOut: .timeLimit
            case .failed(.input): .input
            case .failed(.output): .output
            case .cancelled: .cancelled
            }
        }
    }

    /// How the image ended.
    public var status: Status
    /// The rendered document, for `.ok` and `.timedOut`.
    public var document: Data?
    /// The images made beside it (`ExportRequest.images`).
    public var images: [ExportRequest.Image: Data]
    /// What a person should be told about it, in order (`ExportRequest.render(_:stamp:)`'s,
    /// or the error that stopped it).
    public var diagnostics: [Diagnostic]
    /// What the process reading it printed meanwhile (the image codecs' own messages, a
    /// crash's last words), one line each.
    public var printed: [String]
    /// `sha256:` of the bytes read; nil when they could not be read.
    public var contentHash: String?
    /// Where the time went, stage by stage; nil when nothing was read.
    public var timings: StageTimings?
    /// The whole time spent on it, rendering included.
    public var totalTime: Duration?
    /// The coverage check's findings; nil when it did not run.
    public var coverage: ManifestEntry.Coverage?
    /// Tesseract's mean word confidence, 0–100.
    public var meanConfidence: Int?
    /// Whether any word was found.
    public var hasText: Bool?
    /// How many pages the file has (a multi-page TIFF), when it was opened; nil when not.
    public var pageCount: Int?
    /// The pages (from 1) that could not be read, the others being read and written.
    public var failedPages: [Int] = []

    /// Creates an outcome.
    public init(
        status: Status, document: Data? = nil, images: [ExportRequest.Image: Data] = [:], diagnostics: [Diagnostic] = [],
        printed: [String] = [], contentHash: String? = nil, timings: StageTimings? = nil, totalTime: Duration? = nil,
        coverage: ManifestEntry.Coverage? = nil, meanConfidence: Int? = nil, hasText: Bool? = nil
    ) {
        self.status = status
        self.document = document
        self.images = images
        self.diagnostics = diagnostics
        self.printed = printed
        self.contentHash = contentHash
        self.timings = timings
        self.totalTime = totalTime
        self.coverage = coverage
        self.meanConfidence = meanConfidence
        self.hasText = hasText
    }

    enum CodingKeys: String, CodingKey {
        case status, document, images, diagnostics, printed, contentHash, timings, totalTime, coverage, meanConfidence, hasText
        case pageCount, failedPages
    }

    /// Reads an outcome (a worker's answer); `pageCount` and `failedPages`, added later, may
    /// be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Status.self, forKey: .status)
        document = try container.decodeIfPresent(Data.self, forKey: .document)
        images = try container.decode([ExportRequest.Image: Data].self, forKey: .images)
        diagnostics = try container.decode([Diagnostic].self, forKey: .diagnostics)
        printed = try container.decode([String].self, forKey: .printed)
        contentHash = try container.decodeIfPresent(String.self, forKey: .contentHash)
        timings = try container.decodeIfPresent(StageTimings.self, forKey: .timings)
        totalTime = try container.decodeIfPresent(Duration.self, forKey: .totalTime)
        coverage = try container.decodeIfPresent(ManifestEntry.Coverage.self, forKey: .coverage)
        meanConfidence = try container.decodeIfPresent(Int.self, forKey: .meanConfidence)
        hasText = try container.decodeIfPresent(Bool.self, forKey: .hasText)
        pageCount = try container.decodeIfPresent(Int.self, forKey: .pageCount)
        failedPages = try container.decodeIfPresent([Int].self, forKey: .failedPages) ?? []
    }

    /// An image that could not be read because of `error` (`.cancelled` for a cancellation).
    public static func failed(_ error: SnapPoemError, printed: [String] = [], contentHash: String? = nil, totalTime: Duration? = nil)
        -> ImageOutcome
    {
        let status: Status = if case .cancelled = error { .cancelled } else { .failed(.input) }
        return ImageOutcome(
            status: status, diagnostics: [Diagnostic(error)], printed: printed, contentHash: contentHash, totalTime: totalTime)
    }

    /// The one-line reason it failed: its first error, without prefix.
    public var error: String? {
        diagnostics.first { $0.severity == .error }?.text
    }

    /// Its warnings, one line each, without prefix.
    public var warnings: [String] {
        diagnostics.filter { $0.severity == .warning }.map(\.text)
    }

    /// The errors of the pages that could not be read, when the others were (a multi-page
    /// TIFF whose status is `ok` or `timedOut`).
    public var pageErrors: [String] {
        guard !failedPages.isEmpty, status == .ok || status == .timedOut else { return [] }
        return diagnostics.filter { $0.severity == .error }.map(\.text)
    }
}

extension ManifestEntry {
    /// The manifest line for `job` ending as `outcome`, under a run whose options hash is
    /// `optionsHash`; `output` and `outputHash` are set by whoever wrote the output.
    public init(_ job: ImageJob, _ outcome: ImageOutcome, optionsHash: String) {
        self.init(
            input: job.input.relativePath, path: job.input.path, contentHash: outcome.contentHash, optionsHash: optionsHash,
            status: outcome.status.manifestStatus, meanConfidence: outcome.meanConfidence, hasText: outcome.hasText,
            warnings: outcome.warnings + outcome.pageErrors, messages: outcome.printed)
        coverage = outcome.coverage
        pages = outcome.pageCount
        failedPages = outcome.failedPages
        if let total = outcome.totalTime { timings = Timings(outcome.timings, total: total) }
        switch outcome.status {
        case .failed(let failure):
            self.failure = failure
            error = outcome.error ?? "\(job.input.path): failed"
        case .cancelled:
            error = "\(job.input.path): cancelled"
        case .ok, .timedOut:
            break
        }
    }
}
