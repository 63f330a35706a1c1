import Foundation

extension BatchInput {
    /// Reads the input's bytes from `fileSystemPath`, opening it only for reading.
    ///
    /// The file is opened without blocking and examined before any byte is read, so a FIFO,
    /// a device or a socket that happens to carry an image's name is refused instead of
    /// waiting forever or reading without end; a file over `ImageLimits.maxFileBytes` is
    /// refused from its size. An input found in a folder (`enclosingFolder`) is refused when
    /// the file opened lies outside that folder.
    ///
    /// - Throws: `SnapPoemError` naming `path`: not found, a folder, not a regular file,
    ///   permission denied, too large, out of memory, an I/O error.
    public func readContents() throws(SnapPoemError) -> Data {
        try readContents(shouldStop: { false })
    }

    /// `readContents()`, asking `shouldStop` while a file that keeps the reader waiting is
    /// awaited (`SnapPoemError.cancelled` when it answers true).
    func readContents(shouldStop: () -> Bool) throws(SnapPoemError) -> Data {
        try InputFile.read(
            fileSystemPath: fileSystemPath, name: path, limit: ImageLimits.standard.maxFileBytes, within: enclosingFolder,
            shouldStop: shouldStop)
    }
}
