import Foundation

/// A folder a batch writes its outputs and manifests into (`--output-dir`), opened once and
/// owned by this value: everything inside it is reached relative to its descriptor
/// (`openat`, `mkdirat`, `renameat`), and nothing inside it is reached through a symbolic
/// link. Whoever else can write to the folder may have planted a link (`OUT/a.json` → an
/// input photo, `OUT/manifest.jsonl` → a file of yours); a link where an output, a
/// manifest or a subfolder goes is refused, never followed, never replaced.
///
/// The folder itself is the user's choice and is followed if it is a link. Writes are atomic
/// as `OutputFile`'s are, and an output never replaces one of the run's inputs
/// (`ProtectedFiles`). The descriptor is closed when the value goes.
public final class OutputFolder: Sendable {
    /// The folder as given.
    public let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`, creating it (and the folders above it) if need be.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when it is a file, or cannot be created
    ///   or opened.
    public init(creatingAt path: String) throws(SnapPoemError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw .outputNotWritten(path: path, reason: "it is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let cause = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map {
                String(cString: strerror(Int32($0.code))).lowercased()
            }
            throw .outputNotWritten(path: path, reason: "cannot create the folder" + (cause.map { ": \($0)" } ?? ""))
        }
        let opened = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { throw .outputNotWritten(path: path, reason: OutputFile.systemReason(errno)) }
        self.path = path
        self.descriptor = opened
    }

    deinit { close(descriptor) }

    /// The path of `relative` inside the folder, as messages show it: `OUT/sub/a.txt`.
    public func shownPath(_ relative: String) -> String {
        (path.hasSuffix("/") ? path : path + "/") + relative
    }

    /// Writes `data` to `relative` (`sub/a.txt`), creating the subfolders it names.
    ///
    /// - Parameters:
    ///   - data: the bytes to write.
    ///   - relative: the path inside the folder.
    ///   - overwrite: whether an existing regular file of that name may be replaced.
    ///   - protected: files never to be replaced (the run's inputs).
    ///   - unfinished: where the temporary file is registered while it is written.
    /// - Throws: `SnapPoemError.outputNotWritten`: a link, folder, FIFO or other special file
    ///   in the way (or a link or file where a subfolder goes), an existing file without
    ///   `overwrite`, an input of the run, or the system's reason.
    public func write(
        _ data: Data, to relative: String, overwrite: Bool, protecting protected: ProtectedFiles = [],
        unfinished: UnfinishedFiles? = nil
    ) throws(SnapPoemError) {
        let shown = shownPath(relative)
        let (folder, name) = try openParent(of: relative, creating: true)
        defer { if folder != descriptor { close(folder) } }
        try checkEntry(name, in: folder, shown: shown, overwrite: overwrite)
        if protected.contains(name, inFolder: folder) {
            throw .outputNotWritten(path: shown, reason: "it is an input image; snap-poem never overwrites its inputs")
        }
        try AtomicWrite(
            data: data, folder: folder,
            folderPath: (path as NSString).appendingPathComponent((relative as NSString).deletingLastPathComponent),
            name: name, shownPath: shown, overwrite: overwrite, unfinished: unfinished
        ).run()
    }

    /// Checks, before any work, what `write(_:to:overwrite:protecting:unfinished:)` would
    /// find at `relative`: true when a regular file is there, false when nothing is.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` for a link or anything but a regular file
    ///   in the way, or a link where a subfolder goes.
    public func hasFile(at relative: String) throws(SnapPoemError) -> Bool {
        let shown = shownPath(relative)
        let parent: (Int32, String)
        do throws(SnapPoemError) {
            parent = try openParent(of: relative, creating: false)
        } catch {
            if case .outputNotWritten(_, let reason) = error, reason == Self.missingFolder { return false }
            throw error
        }
        let (folder, name) = parent
        defer { if folder != descriptor { close(folder) } }
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        try refuse(status.st_mode & S_IFMT, shown: shown)
        return true
    }

    /// Whether the entry at `relative` (not followed) is one of `protected`.
    public func holds(_ protected: ProtectedFiles, at relative: String) -> Bool {
        guard let (folder, name) = try? openParent(of: relative, creating: false) else { return false }
        defer { if folder != descriptor { close(folder) } }
        return protected.contains(name, inFolder: folder)
    }

    /// Reads the regular file at `relative`, at most `limit` bytes, without following a link.
    ///
    /// - Throws: `SnapPoemError` as `InputFile` does, and `.unreadableFile` for a link.
    public func read(_ relative: String, limit: Int) throws(SnapPoemError) -> Data {
        let descriptor = try open(relative, flags: O_RDONLY | O_NONBLOCK)
        defer { close(descriptor) }
        return try InputFile.read(descriptor: descriptor, name: shownPath(relative), limit: limit)
    }

    /// Opens the regular file at `relative` without following a link (for reading or, with
    /// `O_WRONLY | O_APPEND | O_CREAT`, appending); the caller closes the descriptor.
    ///
    /// - Throws: `SnapPoemError.unreadableFile` (`.outputNotWritten` when `flags` write)
    ///   for a link, a special file, or the system's reason; `.fileNotFound` when it is not
    ///   there and not created.
    public func open(_ relative: String, flags: Int32) throws(SnapPoemError) -> Int32 {
        let writes = flags & (O_WRONLY | O_RDWR) != 0
        let shown = shownPath(relative)
        let (folder, name) = try openParent(of: relative, creating: writes)
        defer { if folder != descriptor { close(folder) } }
        let opened = openat(folder, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o666)
        if opened < 0 {
            let code = errno
            if code == ENOENT, !writes { throw .fileNotFound(path: shown) }
            let reason = code == ELOOP ? Self.linkReason : OutputFile.systemReason(code)
            throw writes ? .outputNotWritten(path: shown, reason: reason) : .unreadableFile(path: shown, reason: reason)
        }
        var status = stat()
        if fstat(opened, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            close(opened)
            let reason = "it is \(InputFile.describe(fileType: status.st_mode & S_IFMT)), not a regular file"
            throw writes ? .outputNotWritten(path: shown, reason: reason) : .unreadableFile(path: shown, reason: reason)
        }
        return opened
    }

    /// Removes the file at `relative` (never a folder, never through a link); false when
    /// nothing was removed.
    @discardableResult
    public func remove(_ relative: String) -> Bool {
        guard let (folder, name) = try? openParent(of: relative, creating: false) else { return false }
        defer { if folder != descriptor { close(folder) } }
        return unlinkat(folder, name, 0) == 0
    }

    /// The names directly in the folder, sorted.
    public func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
    }

    /// Removes the temporary files that `write` leaves when a run is killed between creating
    /// and renaming them (`.NAME.snap-poem-XXXXXX` beside `NAME`, or for a long name
    /// `.snap-poem-HHHHHHHHHHHHHHHH-XXXXXX`, named after a hash of it), for the outputs at
    /// `relatives` only: another shard's files in a shared folder are never touched.
    ///
    /// - Returns: how many were removed.
    public func removeStaleTemporaryFiles(for relatives: [String]) -> Int {
        var namesByFolder: [String: Set<String>] = [:]
        for relative in relatives {
            namesByFolder[(relative as NSString).deletingLastPathComponent, default: []].insert((relative as NSString).lastPathComponent)
        }
        var removed = 0
        for (subfolder, names) in namesByFolder {
            guard let folder = try? openFolder(subfolder, creating: false) else { continue }
            defer { if folder != descriptor { close(folder) } }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: subfolder.isEmpty ? path : shownPath(subfolder))) ?? []
            for entry in entries where entry.hasPrefix(".") && TemporaryName.isTemporary(entry, of: names) {
                if unlinkat(folder, entry, 0) == 0 { removed += 1 }
            }
        }
        return removed
    }

    // MARK: - Inside the folder

    static let linkReason = "it is a symbolic link; inside the output folder snap-poem never follows or replaces a link"
    private static let missingFolder = "the folder does not exist"

    /// The descriptor of the folder holding `relative` (this folder's own, or a subfolder's
    /// the caller closes) and the last component's name.
    private func openParent(of relative: String, creating: Bool) throws(SnapPoemError) -> (Int32, String) {
        let parts = PathComponents.split(relative).filter { !PathComponents.isCurrent($0) }
        guard let name = parts.last, !parts.contains(where: PathComponents.isParent) else {
            throw .outputNotWritten(path: shownPath(relative), reason: "the name leaves the output folder")
        }
        do throws(SnapPoemError) {
            return (try openFolder(parts.dropLast().joined(separator: "/"), creating: creating), name)
        } catch {
            if case .outputNotWritten(_, let reason) = error { throw .outputNotWritten(path: shownPath(relative), reason: reason) }
            throw error
        }
    }

    /// The descriptor of the subfolder `relative` (this folder's own for ""), each level
    /// opened with `O_NOFOLLOW`, and created when `creating`; the caller closes it unless it
    /// is this folder's.
    private func openFolder(_ relative: String, creating: Bool) throws(SnapPoemError) -> Int32 {
        var current = descriptor
        var walked = ""
        for part in PathComponents.split(relative) where !PathComponents.isCurrent(part) {
            walked = walked.isEmpty ? part : walked + "/" + part
            if creating, mkdirat(current, part, 0o777) != 0, errno != EEXIST {
                let reason = OutputFile.systemReason(errno)
                if current != descriptor { close(current) }
                throw .outputNotWritten(path: shownPath(walked), reason: "cannot create the folder \(shownPath(walked)): \(reason)")
            }
            let next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                var status = stat()
                let isLink = fstatat(descriptor, walked, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
                let reason =
                    code == ENOENT
                    ? Self.missingFolder
                    : isLink || code == ELOOP
                        ? "\(shownPath(walked)) is a symbolic link; inside the output folder snap-poem never follows a link"
                        : code == ENOTDIR ? "\(shownPath(walked)) is not a folder" : OutputFile.systemReason(code)
                throw .outputNotWritten(path: shownPath(walked), reason: reason)
            }
            current = next
        }
        return current
    }

    /// Refuses a link or anything but a regular file at `name` of `folder`; without
    /// `overwrite`, a regular file too.
    private func checkEntry(_ name: String, in folder: Int32, shown: String, overwrite: Bool) throws(SnapPoemError) {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        try refuse(status.st_mode & S_IFMT, shown: shown)
        guard overwrite else { throw .outputNotWritten(path: shown, reason: OutputFile.existsReason) }
    }

    private func refuse(_ kind: mode_t, shown: String) throws(SnapPoemError) {
        if kind == S_IFLNK { throw .outputNotWritten(path: shown, reason: Self.linkReason) }
        try OutputFile.refuseNonRegular(kind, path: shown)
    }
}
