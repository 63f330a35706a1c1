import CTesseract
import Foundation
import Synchronization

/// Writes an output file atomically: the bytes go to a new temporary file in the same folder,
/// are flushed to disk, and only then take the final name. A reader never sees a half-written
/// file, and a failure leaves nothing behind.
///
/// Only regular files are ever replaced: an existing FIFO, device, socket or folder at the
/// destination is refused, with or without `overwrite` (renaming over a FIFO would replace
/// it, and over `/dev/stdout` the system's link). A destination that is a symbolic link is
/// written through: its target file is replaced and the link kept.
///
/// The temporary files being written are registered, so that `removeUnfinishedFiles()`
/// can delete them when the process must end at once (a second Ctrl-C).
public enum OutputFile {
    /// Writes `data` to `path`.
    ///
    /// - Parameters:
    ///   - data: the bytes to write.
    ///   - requestedPath: the file to write; its folder must exist.
    ///   - overwrite: replace an existing regular file; when false an existing file is kept
    ///     and the call throws (checked atomically, with `link`, not by looking first).
    ///   - protectedPaths: paths that must never be written (the input images); compared after
    ///     resolving links, so `./a.png` and `a.png` are the same file.
    /// - Throws: `SnapPoemError.outputNotWritten` with the reason.
    public static func write(
        _ data: Data,
        to requestedPath: String,
        overwrite: Bool = false,
        protecting protectedPaths: [String] = []
    ) throws(SnapPoemError) {
        guard !requestedPath.isEmpty else { throw .outputNotWritten(path: requestedPath, reason: "the file name is empty") }
        let path = try destination(of: requestedPath, overwrite: overwrite)
        let destination = URL(fileURLWithPath: path)
        let resolved = destination.resolvingSymlinksInPath().standardizedFileURL.path
        if protectedPaths.contains(where: { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path == resolved }) {
            throw .outputNotWritten(path: requestedPath, reason: "it is an input image; snap-poem never overwrites its inputs")
        }
        let folder = destination.deletingLastPathComponent().path
        var template = Array((folder + "/.\(destination.lastPathComponent).snap-poem-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw .outputNotWritten(path: requestedPath, reason: systemReason(errno)) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unfinished.withLock { _ = $0.insert(temporary) }
        var keepTemporary = false
        defer {
            if !keepTemporary { unlink(temporary) }
            unfinished.withLock { _ = $0.remove(temporary) }
        }

        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if failure == 0, fchmod(descriptor, 0o666 & ~processUmask) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else { throw .outputNotWritten(path: requestedPath, reason: systemReason(failure)) }

        if overwrite {
            guard rename(temporary, path) == 0 else { throw .outputNotWritten(path: requestedPath, reason: systemReason(errno)) }
            keepTemporary = true
        } else {
            // Never replace a file that appeared meanwhile: renameat2 with RENAME_NOREPLACE
            // fails with EEXIST. File systems without it (EINVAL) get link(), which fails the
            // same way; those without hard links either (vfat, some FUSE and SMB mounts:
            // EPERM) get a plain rename after one more look, the best they allow.
            if snap_poem_rename_noreplace(temporary, path) == 0 {
                keepTemporary = true
                return
            }
            var code = errno
            if code == EINVAL || code == ENOSYS {
                if link(temporary, path) == 0 { return }
                code = errno
                if code == EPERM || code == EOPNOTSUPP, !FileManager.default.fileExists(atPath: path) {
                    guard rename(temporary, path) == 0 else {
                        throw .outputNotWritten(path: requestedPath, reason: systemReason(errno))
                    }
                    keepTemporary = true
                    return
                }
            }
            throw .outputNotWritten(
                path: requestedPath, reason: code == EEXIST ? "the file exists; use --force to replace it" : systemReason(code))
        }
    }

    /// Deletes the temporary files of writes still in progress. For a process that must end
    /// at once (`_exit` after a second Ctrl-C), where the writes' own clean-up will not run;
    /// safe to call from any thread.
    public static func removeUnfinishedFiles() {
        removeUnfinishedFiles(where: { _ in true })
    }

    /// Deletes the registered temporary files whose paths `matches` accepts (tests, which
    /// run side by side in one process, remove only their own).
    static func removeUnfinishedFiles(where matches: (String) -> Bool) {
        for path in unfinished.withLock({ $0 }) where matches(path) { unlink(path) }
    }

    /// The temporary files being written now (`write` adds and removes its own).
    static let unfinished = Mutex<Set<String>>([])

    /// The file to replace for `path`: `path` itself, or the target of a symbolic link.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when something other than a regular file
    ///   is there, when a regular file is there and `overwrite` is false, or for a link whose
    ///   target is missing.
    private static func destination(of path: String, overwrite: Bool) throws(SnapPoemError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            var link = stat()
            if code == ENOENT, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                throw .outputNotWritten(path: path, reason: "it is a symbolic link to a file that does not exist")
            }
            return path  // a new file (or a folder problem that the write itself will report)
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw .outputNotWritten(path: path, reason: "it is a directory") }
        guard kind == S_IFREG else {
            throw .outputNotWritten(
                path: path,
                reason:
                    "it is \(InputFile.describe(fileType: kind)), not a regular file; snap-poem replaces regular files only (use '-o -' for standard output)"
            )
        }
        guard overwrite else { throw .outputNotWritten(path: path, reason: "the file exists; use --force to replace it") }
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else {
            throw .outputNotWritten(path: path, reason: "its symbolic link cannot be followed (\(systemReason(errno)))")
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Checks, before any work, that `write(_:to:overwrite:protecting:)` could write `path`:
    /// nothing is there, or a regular file that `overwrite` allows replacing.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` with the same reason the write would give
    ///   (a folder, a FIFO or device, a dangling link, a file that exists without `--force`).
    public static func checkDestination(_ path: String, overwrite: Bool) throws(SnapPoemError) {
        guard !path.isEmpty else { throw .outputNotWritten(path: path, reason: "the file name is empty") }
        _ = try destination(of: path, overwrite: overwrite)
    }

    /// Creates the folders above `path` that do not exist yet.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when a folder cannot be created.
    public static func createParentFolders(of path: String) throws(SnapPoemError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .outputNotWritten(path: path, reason: "cannot create the folder \(folder.path)")
        }
    }

    private static func systemReason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// The process's file-creation mask, read once from `/proc/self/status` (calling
    /// `umask` to read it would change it for other threads meanwhile). Defaults to 022.
    private static let processUmask: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return value
    }()
}
