import Foundation

/// Reads a whole input (an image, a replacements file, standard input) into memory, safely
/// whatever the path names.
///
/// - Only regular files are read: a FIFO, a device (`/dev/zero`), a socket or a folder is
///   refused from `fstat` on the opened descriptor (opened with `O_NONBLOCK`, so opening a
///   FIFO without a writer cannot block, and the check cannot race a rename).
/// - At most `limit` bytes: a larger file is refused from its size before anything is read;
///   standard input, whose size is unknown, is read until it passes the limit.
/// - The bytes are copied into memory, never mapped: a mapped file that another program
///   truncates would kill the process with SIGBUS.
/// - Running out of memory for the buffer is an error, not a trap.
/// - Standard input is read in slices, checking `shouldStop` every 100 ms while it waits,
///   so Ctrl-C stops a read from a terminal or a pipe that never ends.
/// - A regular file never makes a reader wait, except a kernel file that waits for events
///   (`/proc/kmsg` looks like an empty regular file and blocks): one that gives no data for
///   `regularFileStall` is refused, and `shouldStop` is asked while it is awaited.
package enum InputFile {
    /// How standard input is named in errors.
    static let standardInputName = "<stdin>"

    /// How long a regular file may keep a reader waiting for data before it is refused.
    /// `poll` reports a file on a disk (local or over the network) ready at once, however
    /// slow the disk; only a file that waits for events stays unready.
    static let regularFileStall = Duration.seconds(2)

    /// Reads the regular file at `path` (`"-"` reads standard input).
    ///
    /// - Throws: `SnapPoemError.fileNotFound`, `.unreadableFile` (permission, a folder, an
    ///   I/O error), `.notARegularFile`, `.fileTooLarge`, `.outOfMemory`, or `.cancelled`
    ///   when `shouldStop` answered true while standard input was awaited.
    package static func read(
        _ path: String, limit: Int, shouldStop: () -> Bool = { false }
    ) throws(SnapPoemError) -> Data {
        if path == "-" { return try readStandardInput(limit: limit, shouldStop: shouldStop) }
        return try read(fileSystemPath: Array(path.utf8), name: path, limit: limit, shouldStop: shouldStop)
    }

    /// Reads the regular file whose path is `fileSystemPath`: the bytes the file system
    /// uses, which need not be UTF-8 (a batch's folders may hold such names). `name` is how
    /// errors name it. `refusal`, when given, is asked about the open descriptor before
    /// anything is read (a batch checks there that the file lies inside its folder); the
    /// error it returns is thrown.
    ///
    /// - Throws: as `read(_:limit:shouldStop:)`, or what `refusal` returns.
    package static func read(
        fileSystemPath: [UInt8], name path: String, limit: Int,
        refusal: ((Int32) -> SnapPoemError?)? = nil, shouldStop: () -> Bool = { false }
    ) throws(SnapPoemError) -> Data {
        let terminated = fileSystemPath + [0]
        let descriptor = terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        }
        guard descriptor >= 0 else { throw openFailure(errno, path: path, fileSystemPath: terminated) }
        defer { close(descriptor) }
        if let refused = refusal?(descriptor) { throw refused }
        return try read(descriptor: descriptor, name: path, limit: limit, shouldStop: shouldStop)
    }

    /// Reads the file open as `descriptor` (opened with `O_NONBLOCK`) from its start: it must
    /// be a regular file of at most `limit` bytes. `name` is how errors name it.
    ///
    /// - Throws: as `read(_:limit:shouldStop:)`.
    package static func read(
        descriptor: Int32, name path: String, limit: Int, shouldStop: () -> Bool = { false }
    ) throws(SnapPoemError) -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadableFile(path: path, reason: systemReason(errno))
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw .unreadableFile(path: path, reason: "it is a directory") }
        guard kind == S_IFREG else { throw .notARegularFile(path: path, kind: describe(fileType: kind)) }
        let size = Int(status.st_size)
        guard size <= limit else { throw .fileTooLarge(path: path, bytes: size, limit: limit) }
        return try readAll(
            descriptor, name: path, expected: size, limit: limit, stall: regularFileStall, shouldStop: shouldStop)
    }

    /// Reads standard input to its end, up to `limit` bytes.
    static func readStandardInput(limit: Int, shouldStop: () -> Bool) throws(SnapPoemError) -> Data {
        let name = standardInputName
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0 else {
            throw .unreadableFile(path: name, reason: errno == EBADF ? "standard input is closed" : systemReason(errno))
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw .unreadableFile(path: name, reason: "it is a directory") }
        var expected = 0
        if kind == S_IFREG {
            // A file redirected with `<`: its size is known, what is left of it is read.
            let position = lseek(STDIN_FILENO, 0, SEEK_CUR)
            let remaining = Int(status.st_size) - Int(max(position, 0))
            guard remaining <= limit else { throw .fileTooLarge(path: name, bytes: remaining, limit: limit) }
            expected = max(remaining, 0)
        }
        return try readAll(
            STDIN_FILENO, name: name, expected: expected, limit: limit, stall: kind == S_IFREG ? regularFileStall : nil,
            shouldStop: shouldStop)
    }

    /// Reads a pipe, terminal or other stream to its end, at most `limit` bytes, asking
    /// `shouldStop` every 100 ms while it waits for data.
    ///
    /// - Throws: `SnapPoemError.fileTooLarge`, `.unreadableFile`, `.outOfMemory`, `.cancelled`.
    static func readStream(
        _ descriptor: Int32, name: String, limit: Int, shouldStop: () -> Bool
    ) throws(SnapPoemError) -> Data {
        try readAll(descriptor, name: name, expected: 0, limit: limit, stall: nil, shouldStop: shouldStop)
    }

    /// Reads `descriptor` to its end into one buffer, growing it as needed, at most `limit`
    /// bytes. Waits for data with `poll` in slices of 100 ms, asking `shouldStop` in between;
    /// with a `stall`, gives up (`SnapPoemError.unreadableFile`) when no data came for that long.
    static func readAll(
        _ descriptor: Int32, name: String, expected: Int, limit: Int, stall: Duration?, shouldStop: () -> Bool
    ) throws(SnapPoemError) -> Data {
        let buffer = try GrowableBuffer(capacity: min(max(expected, 1), limit) + 1, name: name)
        let clock = ContinuousClock()
        var lastData = clock.now
        while true {
            if buffer.count > limit { throw .fileTooLarge(path: name, bytes: nil, limit: limit) }
            if buffer.count == buffer.capacity {
                try buffer.grow(to: min(limit + 1, max(buffer.capacity * 2, 1 << 20)), name: name)
            }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 100)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .unreadableFile(path: name, reason: systemReason(errno))
            }
            if ready == 0 {
                if shouldStop() { throw .cancelled(path: name) }
                if let stall, clock.now - lastData >= stall { throw stalled(name, after: stall) }
                continue
            }
            let count = buffer.readMore(from: descriptor)
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN {
                    if let stall, clock.now - lastData >= stall { throw stalled(name, after: stall) }
                    continue
                }
                throw .unreadableFile(path: name, reason: systemReason(code))
            }
            lastData = clock.now
            if shouldStop() { throw .cancelled(path: name) }
        }
        return buffer.take()
    }

    /// The error for a file that gave no data for `stall`.
    private static func stalled(_ name: String, after stall: Duration) -> SnapPoemError {
        .unreadableFile(
            path: name,
            reason: "it gave no data for \(stall.components.seconds) s; a file that waits for events, like /proc/kmsg, is not read")
    }

    /// The error for a failed `open`.
    private static func openFailure(_ code: Int32, path: String, fileSystemPath: [UInt8]) -> SnapPoemError {
        switch code {
        case ENOENT where isSymbolicLink(fileSystemPath):
            .unreadableFile(path: path, reason: "a symbolic link to a file that does not exist")
        case ENOENT: .fileNotFound(path: path)
        case ENOTDIR: notAFolder(path: path, fileSystemPath: fileSystemPath)
        case ELOOP: .unreadableFile(path: path, reason: "a loop of symbolic links")
        case EACCES, EPERM: .unreadableFile(path: path, reason: "permission denied")
        case ENXIO: .notARegularFile(path: path, kind: "a socket or a device without a driver")
        case ENOMEM: .outOfMemory(path: path, stage: "opening the file")
        default: .unreadableFile(path: path, reason: systemReason(code))
        }
    }

    /// The error for a path that goes through a file as if it were a folder
    /// (`Lenore.png/x.png`): it names the part that is not a folder.
    private static func notAFolder(path: String, fileSystemPath terminated: [UInt8]) -> SnapPoemError {
        let bytes = terminated.last == 0 ? Array(terminated.dropLast()) : terminated
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for count in 1..<max(components.count, 1) {
            let prefix = Array(components.prefix(count).joined(separator: [UInt8(ascii: "/")]))
            guard !prefix.isEmpty else { continue }
            var status = stat()
            let found = (prefix + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
            }
            if found, status.st_mode & S_IFMT != S_IFDIR {
                // The shown path has as many '/' as the bytes: stray bytes are shown as \xNN.
                let shown = path.split(separator: "/", omittingEmptySubsequences: false).prefix(count).joined(separator: "/")
                return .unreadableFile(path: path, reason: "\(shown) is not a folder")
            }
        }
        return .unreadableFile(path: path, reason: "a part of the path is not a folder")
    }

    /// Whether the NUL-terminated path names a symbolic link itself (`lstat`).
    private static func isSymbolicLink(_ terminated: [UInt8]) -> Bool {
        var status = stat()
        let found = terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) == 0 }
        }
        return found && status.st_mode & S_IFMT == S_IFLNK
    }

    /// What a file of type `kind` (`st_mode & S_IFMT`) is, in words.
    static func describe(fileType kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }

    /// `strerror`, in lower case to sit inside a sentence.
    static func systemReason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// A byte buffer from `malloc`, so that running out of memory is an error, not a trap, and
/// whose bytes become `Data` without a copy. Freed in `deinit` unless taken.
private final class GrowableBuffer {
    private var bytes: UnsafeMutableRawPointer?
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int, name: String) throws(SnapPoemError) {
        guard let allocated = malloc(capacity) else { throw .outOfMemory(path: name, stage: "reading the input") }
        bytes = allocated
        self.capacity = capacity
    }

    deinit { free(bytes) }

    /// Enlarges the buffer to `newCapacity` bytes, keeping its contents.
    func grow(to newCapacity: Int, name: String) throws(SnapPoemError) {
        guard newCapacity > capacity else { return }
        guard let moved = realloc(bytes, newCapacity) else {
            throw .outOfMemory(path: name, stage: "reading the input (\(ByteCount.describe(newCapacity)))")
        }
        bytes = moved
        capacity = newCapacity
    }

    /// One `read` into the free space; returns its result (bytes read, 0 at the end, −1).
    func readMore(from descriptor: Int32) -> Int {
        guard let bytes, count < capacity else { return -1 }
        let result = Foundation.read(descriptor, bytes + count, capacity - count)
        if result > 0 { count += result }
        return result
    }

    /// The bytes read, as `Data` that frees the buffer when it goes.
    func take() -> Data {
        guard let owned = bytes else { return Data() }
        bytes = nil
        if count == 0 {
            free(owned)
            return Data()
        }
        return Data(bytesNoCopy: owned, count: count, deallocator: .free)
    }
}
