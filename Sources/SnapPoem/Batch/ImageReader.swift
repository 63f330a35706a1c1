import Foundation

/// Reads one image of a batch with one scanner, from its bytes to its rendered outcome:
/// what a worker process does for each request, and what a batch of one does in this
/// process (`InProcessReader`). One path, so an image gives the same outcome either way.
///
/// The steps: the bytes (the job's own, for standard input, or the file's, through
/// `BatchInput.readContents()`), their hash, decoding, the scan, then
/// `ExportRequest.render(_:stamp:)`. A failure at any step is the outcome, never a throw.
/// A multi-page TIFF is one job too: every page is read in turn (`PoemScanner.scan(_:progress:)`
/// for an `ImageDocument`) into one document (`ExportRequest.render(_:stamp:)` for a
/// `ScannedDocument`); a page that fails is an error naming its number, and the others are
/// still read and written.
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
    ///   - pageStarted: called as each page of a multi-page file after the first starts,
    ///     with its number (a batch worker tells its supervisor, whose per-image limit then
    ///     starts again for the page).
    public func read(
        _ job: ImageJob, progress: (@Sendable (Int) -> Void)? = nil, pageStarted: (@Sendable (Int) -> Void)? = nil
    ) async -> ImageOutcome {
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
                let decoded: Result<Decoded, SnapPoemError>
                do throws(SnapPoemError) {
                    let document = try ImageDocument(data: bytes, name: name, limits: limits)
                    decoded = .success(document.hasSeveralPages ? .pages(document) : .image(try document.decodePage(1)))
                } catch {
                    decoded = .failure(error)
                }
                return (hashes ? ContentHash.of(bytes) : nil, decoded)
            }
            contentHash = hash
            let image: PoemImage, facts: ImageFacts
            switch try decoded.get() {
            case .image(let single): (image, facts) = single
            case .pages(let document):
                return await read(
                    document, job: job, contentHash: hash, start: start, progress: progress, pageStarted: pageStarted)
            }
            let decodeTime = clock.now - start
            var scanned = try await scanner.scan(image, facts: facts, name: name, progress: progress)
            scanned.timings.decode = decodeTime
            scanned.source = input.path
            poem = scanned
        } catch {
            if case .outOfMemory(let path, let stage) = error, let memoryLimit {
                let limit =
                    "the worker memory limit of \(memoryLimit >> 20) MB is too small for this image: raise it, or scale the image down"
                return ImageOutcome(
                    status: .failed(.input),
                    diagnostics: [
                        Diagnostic(
                            .error, "out of memory while \(stage); \(limit)", subject: path, category: .input, setting: .workerMemory)
                    ],
                    contentHash: contentHash, totalTime: clock.now - start)
            }
            return .failed(error, contentHash: contentHash, totalTime: clock.now - start)
        }
        let rendered = request.render(poem, stamp: .now())
        let status: ImageOutcome.Status =
            rendered.document == nil ? .failed(.output) : poem.page.timedOut ? .timedOut : .ok
        var outcome = ImageOutcome(
            status: status, document: rendered.document, images: rendered.images, diagnostics: rendered.diagnostics,
            contentHash: contentHash, timings: poem.timings, totalTime: clock.now - start,
            coverage: poem.coverage.map(ManifestEntry.Coverage.init),
            meanConfidence: poem.page.meanConfidence, hasText: poem.page.hasText)
        outcome.pageCount = 1
        return outcome
    }
}

extension ImageReader {
    /// What decoding gave: one image, or a document of several pages still to decode.
    private enum Decoded: Sendable {
        case image((PoemImage, ImageFacts))
        case pages(ImageDocument)
    }

    /// Reads every page of `document` and renders them as one document.
    private func read(
        _ document: ImageDocument, job: ImageJob, contentHash: String?, start: ContinuousClock.Instant,
        progress: (@Sendable (Int) -> Void)?, pageStarted: (@Sendable (Int) -> Void)?
    ) async -> ImageOutcome {
        let clock = ContinuousClock()
        var scanned: ScannedDocument
        do throws(SnapPoemError) {
            var pageProgress: (@Sendable (DocumentProgress) -> Void)?
            if progress != nil || pageStarted != nil {
                pageProgress = { made in
                    progress?(made.percent)
                    if made.pagePercent == 0, made.page > 1 { pageStarted?(made.page) }
                }
            }
            scanned = try await scanner.scan(document, progress: pageProgress)
        } catch {
            return .failed(error, contentHash: contentHash, totalTime: clock.now - start)
        }
        scanned.source = job.input.path
        for index in scanned.pages.indices { scanned.pages[index].renameSource(job.input.path) }
        let rendered = request.render(scanned, stamp: .now())
        let poems = scanned.poems
        let failedPages = scanned.failures.map(\.page)
        let status: ImageOutcome.Status =
            poems.isEmpty
            ? .failed(.input)
            : rendered.document == nil
                ? .failed(.output)
                : poems.contains { $0.page.timedOut } ? .timedOut : .ok
        var timings = StageTimings()
        for poem in poems {
            timings.decode += poem.timings.decode
            timings.preprocess += poem.timings.preprocess
            timings.recognize += poem.timings.recognize
            timings.personalize += poem.timings.personalize
            timings.coverageCheck += poem.timings.coverageCheck
        }
        let coverages = poems.compactMap(\.coverage)
        var coverage: ManifestEntry.Coverage?
        if var combined = coverages.first.map(ManifestEntry.Coverage.init) {
            for other in coverages.dropFirst().map(ManifestEntry.Coverage.init) {
                combined.complete = combined.complete && other.complete
                combined.coveredBeforeReread = min(combined.coveredBeforeReread, other.coveredBeforeReread)
                combined.coveredAfterReread = min(combined.coveredAfterReread, other.coveredAfterReread)
                combined.linesReread += other.linesReread
                combined.unreadRegions += other.unreadRegions
            }
            coverage = combined
        }
        var outcome = ImageOutcome(
            status: status, document: rendered.document, images: rendered.images, diagnostics: rendered.diagnostics,
            contentHash: contentHash, timings: poems.isEmpty ? nil : timings, totalTime: clock.now - start, coverage: coverage,
            meanConfidence: poems.isEmpty ? nil : poems.map(\.page.meanConfidence).reduce(0, +) / poems.count,
            hasText: poems.isEmpty ? nil : poems.contains { $0.page.hasText })
        outcome.pageCount = scanned.pageCount
        outcome.failedPages = failedPages
        return outcome
    }
}

extension BatchInput {
    /// How messages name the input: its path, or `<stdin>` for standard input.
    public var shownPath: String { isStandardInput ? "<stdin>" : path }
}
