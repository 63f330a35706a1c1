import Foundation

/// Every page of a file: a multi-page TIFF read page by page, in page order, through the same
/// pipeline as a single image.
extension PoemScanner {
    /// Reads every page of the image file at `path` (`"-"` for standard input).
    ///
    /// The whole file is checked first (`ImageDocument`: the page count and the pixels of all
    /// pages, before any is decoded); then each page is decoded and read in turn, one page in
    /// memory at a time. A page that cannot be decoded or read keeps its error in
    /// `ScannedDocument.pages`, and the next page is read. Cancelling the task stops the page
    /// being read and the ones after it.
    ///
    /// ```swift
    /// let scanner = try await PoemScanner(replacing: ["Lenore": "Alex"])
    /// let document = try await scanner.scanDocument(fileAt: "booklet.tif") { progress in
    ///     print("page \(progress.page) of \(progress.pageCount): \(progress.percent) %")
    /// }
    /// print(document.text)  // pages separated by a form feed line
    /// ```
    ///
    /// - Parameters:
    ///   - path: the image file, or `"-"` to read standard input.
    ///   - progress: where reading is, from another thread.
    /// - Throws: `SnapPoemError` naming the file for what stops the whole file (not found,
    ///   not an image, too many pages, too many pixels), and `.cancelled`.
    public func scanDocument(
        fileAt path: String,
        progress: (@Sendable (DocumentProgress) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedDocument {
        let limits = configuration.imageLimits
        let document = try await offloadStoppable { stop throws(SnapPoemError) in
            try ImageDocument(fileAt: path, limits: limits, shouldStop: { stop.isRaised })
        }
        var scanned = try await scan(document, progress: progress)
        scanned.source = path
        for index in scanned.pages.indices { scanned.pages[index].renameSource(path) }
        return scanned
    }

    /// Reads every page of an image held in memory, as `scanDocument(fileAt:progress:)` does.
    ///
    /// - Throws: `SnapPoemError` naming `name`, as `scanDocument(fileAt:progress:)` does.
    public func scanDocument(
        imageData: Data,
        name: String = "image",
        progress: (@Sendable (DocumentProgress) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedDocument {
        let limits = configuration.imageLimits
        let document = try await offload { () throws(SnapPoemError) in try ImageDocument(data: imageData, name: name, limits: limits) }
        return try await scan(document, progress: progress)
    }

    /// Reads every page of an opened document, in order.
    ///
    /// - Throws: `SnapPoemError.cancelled` when the task is cancelled.
    public func scan(
        _ document: ImageDocument,
        progress: (@Sendable (DocumentProgress) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedDocument {
        var pages: [ScannedPage] = []
        let count = document.pageCount
        for number in 1...count {
            if Task.isCancelled { throw .cancelled(path: document.name) }
            progress?(DocumentProgress(page: number, pageCount: count, pagePercent: 0))
            let clock = ContinuousClock()
            let start = clock.now
            do throws(SnapPoemError) {
                let (image, facts) = try await offload { () throws(SnapPoemError) in try document.decodePage(number) }
                let decodeTime = clock.now - start
                var report: (@Sendable (Int) -> Void)?
                if let progress { report = { percent in progress(DocumentProgress(page: number, pageCount: count, pagePercent: percent)) } }
                var poem = try await scan(image, facts: facts, name: document.name, progress: report)
                poem.timings.decode = decodeTime
                pages.append(ScannedPage(number: number, result: .success(poem)))
            } catch {
                if case .cancelled = error { throw error }
                if Task.isCancelled { throw .cancelled(path: document.name) }
                pages.append(ScannedPage(number: number, result: .failure(error)))
            }
        }
        progress?(DocumentProgress(page: count, pageCount: count, pagePercent: 100))
        return ScannedDocument(source: document.name, format: document.format, pages: pages)
    }
}

extension ScannedPage {
    /// Names the page's poem by `source` (the path as given, `-` for standard input).
    mutating func renameSource(_ source: String) {
        if case .success(var poem) = result {
            poem.source = source
            result = .success(poem)
        }
    }
}
