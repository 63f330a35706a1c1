import CTesseract
import Foundation

/// Writes an output file atomically: the bytes go to a new temporary file in the same folder,
/// are flushed to disk, and only then take the final name. A reader never sees a half-written
/// file, and a failure leaves nothing behind.
public enum OutputFile {
    /// Writes `data` to `path`.
    ///
    /// - Parameters:
    ///   - data: the bytes to write.
    ///   - path: the file to write; its folder must exist.
    ///   - overwrite: replace an existing file; when false an existing file is kept and the
    ///     call throws (checked atomically, with `link`, not by looking first).
    ///   - protectedPaths: paths that must never be written (the input images); compared after
    ///     resolving links, so `./a.png` and `a.png` are the same file.
    /// - Throws: `SnapPoemError.outputNotWritten` with the reason.
    public static func write(
        _ data: Data,
        to path: String,
        overwrite: Bool = false,
        protecting protectedPaths: [String] = []
    ) throws(SnapPoemError) {
        let destination = URL(fileURLWithPath: path)
        let resolved = destination.resolvingSymlinksInPath().standardizedFileURL.path
        if protectedPaths.contains(where: { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path == resolved }) {
            throw .outputNotWritten(path: path, reason: "it is an input image; snap-poem never overwrites its inputs")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .outputNotWritten(path: path, reason: "it is a directory") }
            if !overwrite { throw .outputNotWritten(path: path, reason: "the file exists; use --force to replace it") }
        }
        let folder = destination.deletingLastPathComponent().path
        var template = Array((folder + "/.\(destination.lastPathComponent).snap-poem-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .outputNotWritten(path: path, reason: systemReason(errno)) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }

        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if failure == 0 { fchmod(descriptor, 0o666 & ~processUmask) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else { throw .outputNotWritten(path: path, reason: systemReason(failure)) }

        if overwrite {
            guard rename(temporary, path) == 0 else { throw .outputNotWritten(path: path, reason: systemReason(errno)) }
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
                    guard rename(temporary, path) == 0 else { throw .outputNotWritten(path: path, reason: systemReason(errno)) }
                    keepTemporary = true
                    return
                }
            }
            throw .outputNotWritten(
                path: path, reason: code == EEXIST ? "the file exists; use --force to replace it" : systemReason(code))
        }
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
