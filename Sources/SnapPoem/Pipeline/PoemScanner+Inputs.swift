import Foundation

/// The whole pipeline from a file URL or from bytes in memory, for callers that have no path:
/// an app with a photo picked by the user, a server with an uploaded body.
extension PoemScanner {
    /// Reads the poem in the image file at a `file:` URL.
    ///
    /// - Parameters:
    ///   - url: a file URL. Other schemes are refused: fetch the bytes first and use
    ///     `scan(imageData:name:progress:)`.
    ///   - progress: recognition progress 0–100, called from another thread.
    /// - Returns: the recognised and personalised poem, its `source` the URL's path.
    /// - Throws: `SnapPoemError` naming the file, as for `scan(fileAt:progress:)`, and
    ///   `.unreadableFile` for a URL that is not a file URL.
    public func scan(
        fileAt url: URL,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        try await scan(fileAt: try ImageDecoder.filePath(of: url), progress: progress)
    }

    /// Reads the poem in an image held in memory: the bytes of a PNG, JPEG, TIFF, WebP, … file.
    ///
    /// The bytes go through exactly the checks a file does (format recognised from its first
    /// bytes, header read and held to `configuration.imageLimits` before anything is decoded,
    /// EXIF orientation applied), and are decoded by Leptonica from memory (`pixReadMem`);
    /// nothing is written to disk.
    ///
    /// - Parameters:
    ///   - imageData: the encoded image.
    ///   - name: how the image is named in errors and in the result's `source`, e.g. the
    ///     name of an uploaded file.
    ///   - progress: recognition progress 0–100, called from another thread.
    /// - Returns: the recognised and personalised poem.
    /// - Throws: `SnapPoemError` naming `name`: empty, not an image, damaged, too large,
    ///   cancelled, or failed recognition.
    public func scan(
        imageData: Data,
        name: String = "image",
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        let clock = ContinuousClock()
        let limits = configuration.imageLimits
        let decodeStart = clock.now
        let (image, facts) = try await offload { () throws(SnapPoemError) in
            try ImageDecoder.decode(data: imageData, name: name, limits: limits)
        }
        let decodeTime = clock.now - decodeStart
        var poem = try await scan(image, facts: facts, name: name, progress: progress)
        poem.timings.decode = decodeTime
        return poem
    }

    /// `scan(imageData:name:progress:)`, reading the page's lines with the engine `loan` lends
    /// as well as this scanner's own, until the loan is taken back (`EngineLoan`); nil reads
    /// as `scan(imageData:name:progress:)` does. The text is the same either way.
    ///
    /// - Throws: `SnapPoemError` as for `scan(imageData:name:progress:)`.
    public func scan(
        imageData: Data,
        name: String = "image",
        borrowing loan: EngineLoan?,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        let result: Result<ScannedPoem, SnapPoemError> = await EngineLoan.$current.withValue(loan) {
            do throws(SnapPoemError) {
                return .success(try await scan(imageData: imageData, name: name, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
