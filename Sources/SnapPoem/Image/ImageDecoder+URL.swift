import Foundation

extension ImageDecoder {
    /// Decodes the image file at a `file:` URL, with the same checks and limits as
    /// `decode(fileAt:limits:)`; errors name the file by its path.
    ///
    /// - Parameters:
    ///   - url: a file URL. Other schemes are refused: fetch the bytes first and use
    ///     `decode(data:name:limits:)`.
    ///   - limits: the largest image to decode, checked against the header first.
    /// - Returns: the upright image and what is known of its file.
    /// - Throws: `SnapPoemError.unreadableFile` for a URL that is not a file URL, and every
    ///   error of `decode(fileAt:limits:)`.
    public static func decode(
        fileAt url: URL,
        limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        try decode(fileAt: try filePath(of: url), limits: limits)
    }

    /// The path to open for a file URL. A URL always names a file, so a path of `-` is read
    /// as the file `./-`, never as standard input.
    ///
    /// - Throws: `SnapPoemError.unreadableFile` for a URL that is not a file URL.
    static func filePath(of url: URL) throws(SnapPoemError) -> String {
        guard url.isFileURL else {
            throw .unreadableFile(
                path: url.absoluteString,
                reason: "only file URLs are read; fetch the bytes and pass them as Data, e.g. to scan(imageData:name:)")
        }
        let path = url.path
        return path == "-" ? "./-" : path
    }
}
