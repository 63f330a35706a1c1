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
/// written through: its target file is replaced and the link kept (the user named it).
/// Inside a batch's output folder, where strangers may have planted links, `OutputFolder`
/// writes instead, and never through a link.
///
/// A write in progress registers its temporary file in `unfinished`, so that a process
/// that must end at once (a second Ctrl-C) can delete it (`UnfinishedFiles.removeAll()`).
public enum OutputFile {
    /// Writes `data` to `path`.
    ///
    /// - Parameters:
    ///   - data: the bytes to write.
    ///   - requestedPath: the file to write; its folder must exist.
    ///   - overwrite: replace an existing regular file; when false an existing file is kept
    ///     and the call throws (checked atomically, with `renameat2`, not by looking first).
    ///   - protected: files that must never be replaced (the run's input images), compared
    ///     by identity after following links, so `./a.png`, `a.png` and a link to it are the
    ///     same file.
    ///   - unfinished: where the temporary file is registered while it is written.
    /// - Throws: `SnapPoemError.outputNotWritten` with the reason.
    public static func write(
        _ data: Data,
        to requestedPath: String,
        overwrite: Bool = false,
        protecting protected: ProtectedFiles = [],
        unfinished: UnfinishedFiles? = nil
    ) throws(SnapPoemError) {
        guard !requestedPath.isEmpty else { throw .outputNotWritten(path: requestedPath, reason: "the file name is empty") }
        let path = try destination(of: requestedPath, overwrite: overwrite)
        if protected.contains(path: path) {
            throw .outputNotWritten(path: requestedPath, reason: "it is an input image; snap-poem never overwrites its inputs")
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        try AtomicWrite(
            data: data, folder: AT_FDCWD, folderPath: folder, name: name, shownPath: requestedPath, overwrite: overwrite,
            unfinished: unfinished
        ).run()
    }

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
            if code == ENOENT || code == ENOTDIR { try requireFolder(of: path) }
            return path  // a new file (or a folder problem that the write itself will report)
        }
        try refuseNonRegular(status.st_mode & S_IFMT, path: path)
        guard overwrite else { throw .outputNotWritten(path: path, reason: existsReason) }
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else {
            throw .outputNotWritten(path: path, reason: "its symbolic link cannot be followed (\(systemReason(errno)))")
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// Refuses a new file's path whose folder is missing or is not a folder, so that the
    /// mistake is found before any image is read, not after.
    private static func requireFolder(of path: String) throws(SnapPoemError) {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let code = errno
            throw .outputNotWritten(
                path: path,
                reason: code == ENOENT || code == ENOTDIR ? "the folder \(folder) does not exist" : systemReason(code))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .outputNotWritten(path: path, reason: "\(folder) is not a folder")
        }
    }

    /// Refuses a destination that is there and is not a regular file.
    static func refuseNonRegular(_ kind: mode_t, path: String) throws(SnapPoemError) {
        if kind == S_IFDIR { throw .outputNotWritten(path: path, reason: "it is a directory") }
        guard kind == S_IFREG else {
            throw .outputNotWritten(
                path: path,
                reason:
                    "it is \(InputFile.describe(fileType: kind)), not a regular file; snap-poem replaces regular files only (use '-o -' for standard output)"
            )
        }
    }

    /// Why an existing file is kept.
    static let existsReason = SnapPoemError.fileInTheWayReason

    /// Checks, before any work, that `write(_:to:overwrite:protecting:unfinished:)` could
    /// write `path`: nothing is there, or a regular file that `overwrite` allows replacing.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` with the same reason the write would give
    ///   (a folder, a FIFO or device, a dangling link, a file that exists without `--force`).
    public static func checkDestination(_ path: String, overwrite: Bool) throws(SnapPoemError) {
        guard !path.isEmpty else { throw .outputNotWritten(path: path, reason: "the file name is empty") }
        _ = try destination(of: path, overwrite: overwrite)
    }

    static func systemReason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// Files a write must never replace: the input images of a run. Kept as device and inode
/// numbers, so that a file is recognised however it is named (`./a.png`, a link to it, a
/// hard link). Paths that do not exist are left out.
public struct ProtectedFiles: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// A file's identity.
    struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    private var identities: Set<Identity> = []

    /// The files at `paths` (links followed).
    public init(paths: [String]) {
        self.init(fileSystemPaths: paths.filter { $0 != "-" }.map { Array($0.utf8) })
    }

    /// The files at these paths, given as the file system's bytes (links followed).
    public init(fileSystemPaths: [[UInt8]]) {
        for path in fileSystemPaths {
            var status = stat()
            let found = (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
            }
            if found, status.st_mode & S_IFMT == S_IFREG { identities.insert(Identity(status)) }
        }
    }

    /// The files at the paths of the literal.
    public init(arrayLiteral paths: String...) {
        self.init(paths: paths)
    }

    /// Whether the file at `path` (links followed) is one of them; false when it does not exist.
    func contains(path: String) -> Bool {
        var status = stat()
        return !identities.isEmpty && stat(path, &status) == 0 && identities.contains(Identity(status))
    }

    /// Whether the entry `name` of the folder open as `folder` (not followed, when it is a
    /// link) is one of them.
    func contains(_ name: String, inFolder folder: Int32) -> Bool {
        var status = stat()
        return !identities.isEmpty && fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && identities.contains(Identity(status))
    }
}

extension ProtectedFiles.Identity {
    init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}

/// The temporary files of writes in progress, so that a process that must end at once (a
/// second Ctrl-C, a thread that cannot be created) can delete them before `_exit`. Each run
/// (the command line makes one per process) keeps its own; writes add and remove theirs.
public final class UnfinishedFiles: Sendable {
    private let paths = Locked<Set<String>>([])

    /// Creates an empty registry.
    public init() {}

    /// The temporary files being written now.
    public var current: Set<String> { paths.withLock { $0 } }

    func insert(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Deletes every temporary file still registered; safe to call from any thread.
    public func removeAll() {
        for path in current { unlink(path) }
    }
}

/// One atomic write: a temporary file in the destination's folder (given as a descriptor,
/// or `AT_FDCWD` and a path), written, flushed and renamed into place. Nothing of it
/// follows a link: the temporary file is created with `O_EXCL | O_NOFOLLOW` and renamed over
/// the destination's name itself.
struct AtomicWrite {
    let data: Data
    /// The folder's descriptor, or `AT_FDCWD` with `folderPath` its path.
    let folder: Int32
    /// The folder's path, for the temporary file's registration and for `AT_FDCWD`.
    let folderPath: String
    /// The destination's name in the folder.
    let name: String
    /// How errors name the destination.
    let shownPath: String
    let overwrite: Bool
    let unfinished: UnfinishedFiles?

    /// A path for a name of the folder: relative to the descriptor, or joined to its path.
    private func entry(_ entryName: String) -> String {
        folder == AT_FDCWD ? (folderPath as NSString).appendingPathComponent(entryName) : entryName
    }

    func run() throws(SnapPoemError) {
        let (descriptor, temporaryName) = try createTemporary()
        let temporary = entry(temporaryName)
        let registered = (folderPath as NSString).appendingPathComponent(temporaryName)
        unfinished?.insert(registered)
        var keepTemporary = false
        defer {
            if !keepTemporary { unlinkat(folder, temporary, 0) }
            unfinished?.remove(registered)
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
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else { throw .outputNotWritten(path: shownPath, reason: OutputFile.systemReason(failure)) }

        let destination = entry(name)
        if overwrite {
            guard renameat(folder, temporary, folder, destination) == 0 else {
                throw .outputNotWritten(path: shownPath, reason: OutputFile.systemReason(errno))
            }
            keepTemporary = true
            return
        }
        // Never replace a file that appeared meanwhile: renameat2 with RENAME_NOREPLACE fails
        // with EEXIST. File systems without it (EINVAL) get linkat, which fails the same way;
        // those without hard links either (vfat, some FUSE and SMB mounts: EPERM) get a plain
        // rename after one more look, the best they allow.
        if snap_poem_renameat_noreplace(folder, temporary, folder, destination) == 0 {
            keepTemporary = true
            return
        }
        var code = errno
        if code == EINVAL || code == ENOSYS {
            if linkat(folder, temporary, folder, destination, 0) == 0 { return }
            code = errno
            var status = stat()
            if code == EPERM || code == EOPNOTSUPP, fstatat(folder, destination, &status, AT_SYMLINK_NOFOLLOW) != 0 {
                guard renameat(folder, temporary, folder, destination) == 0 else {
                    throw .outputNotWritten(path: shownPath, reason: OutputFile.systemReason(errno))
                }
                keepTemporary = true
                return
            }
        }
        throw .outputNotWritten(path: shownPath, reason: code == EEXIST ? OutputFile.existsReason : OutputFile.systemReason(code))
    }

    /// Creates a temporary file beside the destination (`TemporaryName`: `.NAME.snap-poem-XXXXXX`,
    /// or the fixed-length form when that would be too long a name), readable and writable
    /// as the umask allows; its descriptor and name.
    private func createTemporary() throws(SnapPoemError) -> (Int32, String) {
        var short = !TemporaryName.fitsReadable(name)
        for _ in 0..<100 {
            let temporaryName = short ? TemporaryName.short(for: name) : TemporaryName.readable(for: name)
            let descriptor = openat(folder, entry(temporaryName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, temporaryName) }
            // A file system whose names are shorter than 255 bytes: the fixed-length form.
            if errno == ENAMETOOLONG, !short {
                short = true
                continue
            }
            if errno != EEXIST { throw .outputNotWritten(path: shownPath, reason: OutputFile.systemReason(errno)) }
        }
        throw .outputNotWritten(path: shownPath, reason: "no temporary file name is free beside it")
    }
}

/// The names of the temporary files an atomic write creates beside its destination `NAME`:
///
/// - `.NAME.snap-poem-XXXXXX` (six random letters and digits), so that a person who finds
///   one left by a killed run sees whose it is;
/// - `.snap-poem-HHHHHHHHHHHHHHHH-XXXXXX` (34 bytes: 16 hex digits of a hash of `NAME`, then
///   the six random ones) when the first form would be longer than a file name may be (255
///   bytes, `NAME_MAX`; or the file system refuses it as too long), so that every name the
///   file system accepts for an output can be written.
///
/// Both tell whose temporary file it is (`owner(of:)`, `isTemporary(_:of:)`), so that a run
/// removes only the leftovers of its own outputs, never those of another shard's.
enum TemporaryName {
    /// What comes between the destination's name and the random letters.
    static let marker = ".snap-poem-"
    /// The random letters and digits of each name.
    static let randomLength = 6
    /// The longest file name on Linux's file systems (`NAME_MAX`).
    static let nameLimit = 255

    /// Whether `.NAME.snap-poem-XXXXXX` is short enough for a file name.
    static func fitsReadable(_ name: String) -> Bool {
        1 + name.utf8.count + marker.utf8.count + randomLength <= nameLimit
    }

    /// `.NAME.snap-poem-XXXXXX`.
    static func readable(for name: String) -> String {
        "." + name + marker + random()
    }

    /// `.snap-poem-HHHHHHHHHHHHHHHH-XXXXXX`.
    static func short(for name: String) -> String {
        marker + key(for: name) + "-" + random()
    }

    /// `NAME` for `.NAME.snap-poem-XXXXXX`; nil for any other name (the short form too).
    static func owner(of temporary: String) -> String? {
        guard temporary.hasPrefix("."), let range = temporary.range(of: marker, options: .backwards) else { return nil }
        let suffix = temporary[range.upperBound...]
        guard suffix.count == randomLength, suffix.allSatisfy(isRandomCharacter) else { return nil }
        let owner = temporary[temporary.index(after: temporary.startIndex)..<range.lowerBound]
        return owner.isEmpty ? nil : String(owner)
    }

    /// Whether `temporary` is, in either form, a temporary file of a write to one of `names`.
    static func isTemporary(_ temporary: String, of names: Set<String>) -> Bool {
        if let owner = owner(of: temporary) { return names.contains(owner) }
        guard temporary.hasPrefix(marker) else { return false }
        let rest = temporary.dropFirst(marker.count)
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, parts[1].count == randomLength, parts[1].allSatisfy(isRandomCharacter) else {
            return false
        }
        return names.contains { key(for: $0) == parts[0] }
    }

    /// The name's `ShortFingerprint`: the same in every run, and a collision costs at most a
    /// leftover temporary file removed a run early.
    static func key(for name: String) -> String {
        ShortFingerprint.of(name)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    private static func random() -> String {
        String((0..<randomLength).map { _ in alphabet.randomElement()! })
    }

    private static func isRandomCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }
}
