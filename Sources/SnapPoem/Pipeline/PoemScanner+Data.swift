import Foundation

extension PoemScanner {
    /// Reads the poem in image bytes held in memory (an upload), without touching the disk.
    ///
    /// - Parameters:
    ///   - data: the encoded image (PNG, JPEG, TIFF, WebP, BMP, GIF, PNM).
    ///   - name: how the image is named in errors and results.
    ///   - progress: recognition progress 0–100, called from another thread.
    /// - Throws: `SnapPoemError` naming `name`, as `scan(fileAt:progress:)` does.
    public func scan(
        data: Data,
        name: String,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        let clock = ContinuousClock()
        let limits = configuration.imageLimits
        let decodeStart = clock.now
        let (image, facts) = try await offload { () throws(SnapPoemError) in
            try ImageDecoder.decode(data: data, name: name, limits: limits)
        }
        let decodeTime = clock.now - decodeStart
        var poem = try await scan(image, facts: facts, name: name, progress: progress)
        poem.timings.decode = decodeTime
        return poem
    }
}
