import Foundation

extension BatchInput {
    /// The largest file a batch reads: far above any image within `ImageLimits.standard`
    /// (150 megapixels stored uncompressed at 48 bits a pixel is 900 MB).
    public static let maximumFileSize = 1 << 30

    /// Reads the input's bytes from `fileSystemPath`, opening it only for reading.
    ///
    /// The file is opened without blocking and examined before any byte is read, so a FIFO,
    /// a device or a socket that happens to carry an image's name is refused instead of
    /// waiting forever or reading without end.
    ///
    /// - Throws: `SnapPoemError` naming `path`: not found, a folder, not a regular file,
    ///   permission denied, over `maximumFileSize`, an I/O error.
    public func readContents() throws(SnapPoemError) -> Data {
        let file = (fileSystemPath + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        }
        guard file >= 0 else {
            let code = errno
            switch code {
            case ENOENT:
                if let link = FileStatus(path: fileSystemPath, following: false), link.isSymbolicLink {
                    throw .unreadableFile(path: path, reason: "a symbolic link to a file that does not exist")
                }
                throw .fileNotFound(path: path)
            case EACCES, EPERM: throw .unreadableFile(path: path, reason: "permission denied")
            case ELOOP: throw .unreadableFile(path: path, reason: "a loop of symbolic links")
            default: throw .unreadableFile(path: path, reason: Self.reason(code))
            }
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw .unreadableFile(path: path, reason: Self.reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .unreadableFile(path: path, reason: "it is a directory")
        case S_IFIFO: throw .unreadableFile(path: path, reason: "it is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw .unreadableFile(path: path, reason: "it is a device, not a regular file")
        case S_IFSOCK: throw .unreadableFile(path: path, reason: "it is a socket, not a regular file")
        default: throw .unreadableFile(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= Self.maximumFileSize else {
            throw .unreadableFile(
                path: path, reason: "the file is \(size / (1 << 20)) MiB, more than the \(Self.maximumFileSize >> 20) MiB a batch reads")
        }
        var data = Data(count: size)
        var total = 0
        var failure: Int32?
        data.withUnsafeMutableBytes { raw in
            while total < raw.count {
                let count = read(file, raw.baseAddress! + total, raw.count - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { break }
                total += count
            }
        }
        if let failure { throw .unreadableFile(path: path, reason: Self.reason(failure)) }
        // A file that shrank while it was read is taken as it was read; one that grew is read
        // up to the size it had when it was opened.
        if total < size { data.removeSubrange(total...) }
        return data
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
