import Foundation

/// Reads one image of a batch with one scanner, from its bytes to its rendered outcome:
/// what a worker process does for each request, and what a batch of one does in this
/// process (`InProcessReader`). One path, so an image gives the same outcome either way.
///
/// The steps: the bytes (the job's own, for standard input, or the file's, through
/// `BatchInput.readContents()`), their hash, decoding, the scan, then
/// `ExportRequest.render(_:stamp:)`. A failure at any step is the outcome, never a throw.
public struct ImageReader: Sendable {
    /// The scanner, with its engine.
    public let scanner: PoemScanner
    /// What is made of each poem.
    public let request: ExportRequest
    /// Whether the outcome carries the content hash of the bytes read (for a manifest);
    /// reading without one saves a pass over the bytes.
    public let hashesContents: Bool
    /// The address-space limit this process was given (a batch worker's `--worker-memory`),
    /// in bytes; nil when there is none. When memory runs out under it, the error says that
    /// the limit is too small, naming the option, rather than "free memory".
    public var memoryLimit: Int?

    /// Creates a reader.
    public init(scanner: PoemScanner, request: ExportRequest, hashesContents: Bool = true) {
        self.scanner = scanner
        self.request = request
        self.hashesContents = hashesContents
    }

    /// Reads `job`.
    ///
    /// - Parameters:
    ///   - job: the image to read and where its outcome goes.
    ///   - progress: recognition progress, 0–100, from another thread.
    public func read(_ job: BatchJob, progress: (@Sendable (Int) -> Void)? = nil) async -> ImageOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let input = job.input
        let name = input.shownPath
        var contentHash: String?
        let poem: ScannedPoem
        do throws(SnapPoemError) {
            let limits = scanner.configuration.imageLimits
            let contents = job.contents
            let hashes = hashesContents
            // A file that keeps the reader waiting (bounded by `InputFile.regularFileStall`)
            // is let go of when the task is cancelled.
            let (hash, decoded) = try await offloadStoppable { stop throws(SnapPoemError) in
                let bytes: Data
                if let contents { bytes = contents } else { bytes = try input.readContents(shouldStop: { stop.isRaised }) }
                let decoded: Result<(PoemImage, ImageFacts), SnapPoemError>
                do throws(SnapPoemError) {
                    decoded = .success(try ImageDecoder.decode(data: bytes, name: name, limits: limits))
                } catch {
                    decoded = .failure(error)
                }
                return (hashes ? ContentHash.of(bytes) : nil, decoded)
            }
            contentHash = hash
            let (image, facts) = try decoded.get()
            let decodeTime = clock.now - start
            var scanned = try await scanner.scan(image, facts: facts, name: name, progress: progress)
            scanned.timings.decode = decodeTime
            scanned.source = input.path
            poem = scanned
        } catch {
            if case .outOfMemory(let path, let stage) = error, let memoryLimit {
                let limit =
                    "the worker memory limit of \(memoryLimit >> 20) MB (--worker-memory) is too small for this image: raise it, or scale the image down"
                return ImageOutcome(
                    status: .failed(.input),
                    diagnostics: [Diagnostic(.error, "out of memory while \(stage); \(limit)", subject: path, category: .input)],
                    contentHash: contentHash, totalTime: clock.now - start)
            }
            return .failed(error, contentHash: contentHash, totalTime: clock.now - start)
        }
        let rendered = request.render(poem, stamp: .now())
        let status: ImageOutcome.Status =
            rendered.document == nil ? .failed(.output) : poem.page.timedOut ? .timedOut : .ok
        return ImageOutcome(
            status: status, document: rendered.document, images: rendered.images, diagnostics: rendered.diagnostics,
            contentHash: contentHash, timings: poem.timings, totalTime: clock.now - start,
            coverage: poem.coverage.map(ManifestEntry.Coverage.init),
            meanConfidence: poem.page.meanConfidence, hasText: poem.page.hasText)
    }
}

extension BatchInput {
    /// How messages name the input: its path, or `<stdin>` for standard input.
    public var shownPath: String { isStandardInput ? "<stdin>" : path }
}
