import Foundation

/// The inputs of a batch, expanded from the command line's arguments, with everything that
/// was noticed on the way, so that nothing is skipped without a word.
///
/// - A file argument stays as it is, even a missing one: its error is reported in turn.
/// - A folder argument becomes every image below it (by extension, `imageExtensions`), in
///   sorted byte order of the path below the folder, hidden files and folders skipped.
/// - Names are read as bytes (`opendir`/`readdir`), so a name that is not valid UTF-8 is
///   read like any other (and shown with `\xNN` escapes); so is an argument, given its bytes
///   (`fileSystemPaths`).
/// - Symbolic links are followed, to files and to folders, as long as they lead to a place
///   inside the folder argument (every link resolved, `realpath`). A link to an image or a
///   folder outside it is not followed and is noted, unless `followsLinksOutside` asks for
///   it: someone else's folder can hold a link to the reader's own photos or to `/`, and
///   what it leads to would end up in the outputs. Each image found carries the folder's
///   resolved path (`BatchInput.enclosingFolder`), and reading it checks the file opened
///   against it again, so a link changed after the listing is refused too.
/// - A link to a folder above it (a loop) is not followed and is noted once; a folder
///   reached a second time through another link is not read again and is noted. A link
///   whose target is missing, or that is part of a loop of links, but whose name is an
///   image's becomes an input, so that it fails with its own error and is counted.
/// - An entry that is listed but cannot be examined (`lstat` fails: a folder that can be
///   listed but not entered, a path longer than `PATH_MAX`) is never dropped in silence:
///   with an image's name it becomes an input that fails with its own error; anything else
///   is noted, naming it and the reason.
/// - A folder argument that holds no image at all is a problem naming it; a folder that
///   cannot be listed is one too.
public struct InputCollection: Sendable {
    /// Every input, in order: arguments as given, each folder's images sorted.
    public var inputs: [BatchInput]
    /// Folders that could not be listed, passed the entry budget or hold no image
    /// (`SnapPoemError.unreadableFolder`, `.noImagesInFolder`), one per folder.
    public var problems: [SnapPoemError]
    /// Things skipped that a person should know about: link loops, folders reached twice,
    /// entries that cannot be examined, links not followed out of a folder (about
    /// `Setting.followLinks`). Warnings of one line each, naming the path.
    public var notes: [Diagnostic]
    /// Whether any argument was a folder (a folder stands for a batch even when it holds a
    /// single image).
    public var hasFolderArgument: Bool

    /// Expands `arguments`; never throws: problems are collected.
    ///
    /// - Parameters:
    ///   - arguments: files and folders, as the command line gave them (`-` for standard
    ///     input).
    ///   - fileSystemPaths: the exact bytes of arguments that are not valid UTF-8, keyed by
    ///     the argument as shown (`BatchInput.displayName(of:)`, each stray byte as `\xNN`);
    ///     an argument not in it is opened as its UTF-8.
    ///   - followsLinksOutside: whether symbolic links that lead out of a folder argument are
    ///     followed too (the command line's `--follow-links`); by default they are noted and
    ///     skipped.
    public static func collect(
        _ arguments: [String], fileSystemPaths: [String: [UInt8]] = [:], followsLinksOutside: Bool = false
    ) -> InputCollection {
        collect(arguments, fileSystemPaths: fileSystemPaths, maximumEntries: maximumEntries, followsLinksOutside: followsLinksOutside)
    }

    /// The most entries (files, folders, links; images or not) a run's folder arguments may
    /// hold below them, all together, links followed. A folder past it is a problem naming
    /// it and the limit, and none of its images is read: the bound is met while listing,
    /// before any image is read, so a link to `/` in someone's folder costs at most this many
    /// `stat` calls and this much memory, never a walk of the whole machine.
    public static let maximumEntries = 1_000_000

    /// `collect(_:fileSystemPaths:)` with another limit on the entries walked.
    package static func collect(
        _ arguments: [String], fileSystemPaths: [String: [UInt8]], maximumEntries: Int, followsLinksOutside: Bool = false
    ) -> InputCollection {
        var collection = InputCollection(inputs: [], problems: [], notes: [], hasFolderArgument: false)
        var entriesLeft = maximumEntries
        for argument in arguments {
            let bytes = fileSystemPaths[argument] ?? Array(argument.utf8)
            var ignored: Int32 = 0
            guard argument != "-", let status = FileStatus(path: bytes, following: true, failure: &ignored), status.isDirectory else {
                collection.inputs.append(BatchInput(path: argument, relativePath: argument, fileSystemPath: bytes))
                continue
            }
            collection.hasFolderArgument = true
            guard entriesLeft > 0 else {
                collection.problems.append(
                    .unreadableFolder(
                        path: argument,
                        reason:
                            "not listed: the folders before it already hold the \(Self.grouped(maximumEntries)) entries that a run's folders may hold (files and folders, links followed); name it in a run of its own"
                    ))
                continue
            }
            var failure: Int32 = 0
            let confinement: FolderWalk.Confinement =
                followsLinksOutside ? .none : CanonicalPath.of(bytes, failure: &failure).map { .within($0) } ?? .unresolved(failure)
            var walk = FolderWalk(root: bytes, shownRoot: argument, entriesLeft: entriesLeft, confinement: confinement)
            walk.run(rootIdentity: status.identity)
            entriesLeft = max(0, walk.entriesLeft)
            if walk.entriesLeft < 0 {
                walk.found = []
                walk.problem = .unreadableFolder(
                    path: argument,
                    reason:
                        "listing it passed the \(Self.grouped(maximumEntries)) entries that a run's folders may hold (files and folders, links followed); none of its images is read: name smaller folders"
                )
            }
            if let problem = walk.problem {
                collection.problems.append(problem)
            } else if walk.found.isEmpty {
                collection.problems.append(.noImagesInFolder(path: argument))
            }
            collection.notes += walk.notes
            collection.inputs += walk.found.sorted { $0.relative.lexicographicallyPrecedes($1.relative) }.map {
                var input = BatchInput(fileSystemPath: $0.full, relativeFileSystemPath: $0.relative)
                if case .within(let folder) = confinement { input.enclosingFolder = folder }
                return input
            }
        }
        return collection
    }

    /// `count` with its digits in groups of three (`1,000,000`).
    package static func grouped(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (count < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}

/// `stat`/`lstat` of a path given as bytes: the facts the walk needs.
struct FileStatus {
    /// Device and inode: what identifies a folder however it is reached.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    let isDirectory: Bool
    let isSymbolicLink: Bool
    let identity: Identity

    /// Nil when the path cannot be examined; `failure` is then set to the `errno` that says
    /// why, taken as the call returned (before anything else can change it).
    init?(path: [UInt8], following: Bool, failure: inout Int32) {
        var info = stat()
        let (result, code) = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                let result = following ? stat($0.baseAddress!, &info) : lstat($0.baseAddress!, &info)
                return (result, errno)
            }
        }
        guard result == 0 else {
            failure = code
            return nil
        }
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        isSymbolicLink = (info.st_mode & S_IFMT) == S_IFLNK
        identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// One folder argument's walk, depth first.
private struct FolderWalk {
    /// Where links may lead and still be followed.
    enum Confinement {
        /// Anywhere (`--follow-links`).
        case none
        /// Inside this folder (the argument, resolved).
        case within([UInt8])
        /// The argument itself could not be resolved (this `errno`): no link is followed.
        case unresolved(Int32)
    }

    let root: [UInt8]
    let shownRoot: String
    let confinement: Confinement
    var found: [(full: [UInt8], relative: [UInt8])] = []
    var notes: [Diagnostic] = []
    var problem: SnapPoemError?
    /// Entries that may still be examined; below zero once the limit was passed, and the
    /// walk stopped.
    var entriesLeft: Int
    private var visited: [FileStatus.Identity: [UInt8]] = [:]

    init(root: [UInt8], shownRoot: String, entriesLeft: Int, confinement: Confinement) {
        self.root = root
        self.shownRoot = shownRoot
        self.entriesLeft = entriesLeft
        self.confinement = confinement
    }

    /// Why the link at `path` is not followed, or nil when it may be: it leads out of the
    /// folder argument (and following such links, `Setting.followLinks`, was not asked for).
    private func outsideNote(link path: [UInt8], shown child: [UInt8]) -> String? {
        switch confinement {
        case .none:
            return nil
        case .unresolved(let code):
            let reason = String(cString: strerror(code)).lowercased()
            return
                "\(shown(child)): symbolic link not followed: where \(shownRoot) itself lies cannot be resolved (\(reason)), so it cannot be told whether the link stays inside"
        case .within(let folder):
            var failure: Int32 = 0
            guard let target = CanonicalPath.of(path, failure: &failure) else {
                let reason = String(cString: strerror(failure)).lowercased()
                return "\(shown(child)): symbolic link not followed: where it leads cannot be resolved (\(reason))"
            }
            if CanonicalPath.isPath(target, within: folder) { return nil }
            let place = BatchInput.displayName(of: target)
            return "\(shown(child)): symbolic link not followed: it leads out of \(shownRoot), to \(place)"
        }
    }

    mutating func run(rootIdentity: FileStatus.Identity) {
        visited[rootIdentity] = []
        walk(relative: [], ancestors: [rootIdentity], isRoot: true)
    }

    private func full(_ relative: [UInt8]) -> [UInt8] {
        guard !relative.isEmpty else { return root }
        return root.last == UInt8(ascii: "/") ? root + relative : root + [UInt8(ascii: "/")] + relative
    }

    private func shown(_ relative: [UInt8]) -> String {
        BatchInput.displayName(of: full(relative))
    }

    private mutating func walk(relative: [UInt8], ancestors: [FileStatus.Identity], isRoot: Bool) {
        let names: [[UInt8]]
        switch Self.list(full(relative), atMost: entriesLeft + 1) {
        case .listed(let listed):
            entriesLeft -= listed.count
            guard entriesLeft >= 0 else { return }
            names = listed
        case .failed(let code):
            let reason = String(cString: strerror(code)).lowercased()
            if isRoot {
                problem = .unreadableFolder(path: shownRoot, reason: "it cannot be listed: \(reason)")
            } else {
                notes.append(Diagnostic(.warning, "\(shown(relative)): folder skipped, it cannot be listed (\(reason))"))
            }
            return
        }
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
            let child = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
            let path = full(child)
            var failure: Int32 = 0
            guard let linkStatus = FileStatus(path: path, following: false, failure: &failure) else {
                // Listed but not examinable (a folder that can be listed but not entered, a
                // path over PATH_MAX): an image's name is an input that fails with its own
                // message, counted; anything else is noted, never dropped in silence.
                let reason = String(cString: strerror(failure)).lowercased()
                if Self.hasImageExtension(name) {
                    found.append((path, child))
                } else {
                    notes.append(Diagnostic(.warning, "\(shown(child)): skipped, it cannot be examined (\(reason))"))
                }
                continue
            }
            guard let status = FileStatus(path: path, following: true, failure: &failure) else {
                // A link that leads nowhere, with an image's name (dangling, or a loop of
                // links), is an input that will fail with its own message, counted; any other
                // (a link to a folder that cannot be examined, say) is noted.
                let code = failure
                if linkStatus.isSymbolicLink, Self.hasImageExtension(name) {
                    found.append((path, child))
                } else if code == ELOOP {
                    notes.append(Diagnostic(.warning, "\(shown(child)): symbolic link loop, not followed"))
                } else {
                    let reason = String(cString: strerror(code)).lowercased()
                    notes.append(Diagnostic(.warning, "\(shown(child)): skipped, it leads to nothing that can be examined (\(reason))"))
                }
                continue
            }
            if linkStatus.isSymbolicLink, status.isDirectory || Self.hasImageExtension(name),
                let note = outsideNote(link: path, shown: child)
            {
                notes.append(Diagnostic(.warning, note, setting: .followLinks))
                continue
            }
            if status.isDirectory {
                if ancestors.contains(status.identity) {
                    notes.append(Diagnostic(.warning, "\(shown(child)): symbolic link to a folder above it (a loop), not followed"))
                } else if let earlier = visited[status.identity] {
                    notes.append(Diagnostic(.warning, "\(shown(child)): the same folder as \(shown(earlier)), read once"))
                } else {
                    visited[status.identity] = child
                    walk(relative: child, ancestors: ancestors + [status.identity], isRoot: false)
                    if entriesLeft < 0 { return }
                }
            } else if Self.hasImageExtension(name) {
                found.append((path, child))
            }
        }
    }

    private enum Listing {
        case listed([[UInt8]])
        case failed(errno: Int32)
    }

    /// The names in a folder (without `.` and `..`), at most `limit` of them, or the `errno`
    /// of the failure (to open it, or while reading it: a partial listing is a failure).
    private static func list(_ folder: [UInt8], atMost limit: Int) -> Listing {
        let (stream, code) = (folder + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                let stream = opendir($0.baseAddress!)
                return (stream, errno)
            }
        }
        guard let stream else { return .failed(errno: code) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while true {
            // readdir says "no more" and "failed" both with nil: only errno tells them apart,
            // and a listing cut short by an I/O error must not pass for a whole one.
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                if code != 0 { return .failed(errno: code) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
            if names.count >= limit { break }
        }
        return .listed(names)
    }

    private static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let suffix = name[(dot + 1)...].map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        guard let text = String(validating: suffix, as: UTF8.self) else { return false }
        return BatchInput.imageExtensions.contains(text)
    }
}
