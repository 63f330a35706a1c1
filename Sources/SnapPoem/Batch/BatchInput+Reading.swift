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
            fileSystemPath: fileSystemPath, name: path, limit: ImageLimits.standard.maxFileBytes,
            refusal: enclosingFolder.map { folder in { descriptor in refusal(of: descriptor, outside: folder) } },
            shouldStop: shouldStop)
    }

    /// The error that refuses the file open as `descriptor`, unless it lies inside `folder`
    /// (resolved), as the kernel names it: a link swapped in after the folder was listed
    /// cannot lead out.
    private func refusal(of descriptor: Int32, outside folder: [UInt8]) -> SnapPoemError? {
        let opened = CanonicalPath.of(descriptor: descriptor)
        guard let opened, CanonicalPath.isPath(opened, within: folder) else {
            // A folder renamed or moved while its batch runs: its images, opened by a path
            // relative to a working folder inside it, now lie under its new name.
            var failure: Int32 = 0
            if CanonicalPath.of(folder, failure: &failure) != folder {
                return .unreadableFile(
                    path: path,
                    reason:
                        "the folder it was found in, \(Self.displayName(of: folder)), was moved or renamed after it was listed; run the batch again where the folder is now"
                )
            }
            let place = opened.map { "to \(Self.displayName(of: $0))" } ?? "to a place that cannot be told"
            return .unreadableFile(
                path: path,
                reason:
                    "it leads out of the folder it was found in, \(Self.displayName(of: folder)), \(place): a link changed after the folder was listed, and links out of a folder are followed only when that is asked for"
            )
        }
        return nil
    }
}
