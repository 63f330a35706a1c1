import Foundation
import Synchronization

/// The manifests of an output folder: `manifest.jsonl` for a whole batch and
/// `manifest.shard-K-of-N.jsonl` for each shard, so that shards writing into one shared
/// folder never write the same file. Each is JSON Lines, one `ManifestEntry` per line.
///
/// A manifest is appended to as each image finishes, so a run that is killed leaves every
/// line it finished. When an input appears on several lines of one file, the last one is its
/// current state, except that a `cancelled` line does not replace an earlier one (an image
/// interrupted while it was read again leaves its earlier output as it was). A run rewrites
/// its own file with one line per input when it starts and when it ends (atomically), so
/// that the file stays small. A line that cannot be read (the torn end of a killed run's
/// last write, a line over `maximumLineBytes`) is skipped and counted.
///
/// Manifests are read as streams, a line at a time, and only the current entry of each input
/// is kept: at most `maximumLineBytes` a line and `maximumBytes` a file, refused beyond.
/// Inside the output folder they are opened without following links (`OutputFolder`).
public enum BatchManifest {
    /// `manifest.jsonl`.
    public static let wholeBatchFileName = "manifest.jsonl"
    /// The longest line read: a line of a real manifest is about a kilobyte, its messages
    /// included (a worker's printed text is bounded to 64 KiB).
    public static let maximumLineBytes = 1 << 20
    /// The largest manifest read, and the most bytes all the manifests of one output folder
    /// may hold together: a million pages at about a kilobyte a line.
    public static let maximumBytes = 1 << 30
    /// The most inputs one manifest may hold entries for: the most a batch can list
    /// (`InputCollection.maximumEntries`).
    public static let maximumEntries = InputCollection.maximumEntries
    /// The most manifest files an output folder may hold: one for each shard of a
    /// Kubernetes Indexed Job at its most completions (100 000), and the whole batch's.
    public static let maximumFiles = 100_001

    /// The manifest a run writes: `manifest.jsonl`, or the shard's own file.
    public static func fileName(for shard: Shard?) -> String {
        shard?.manifestFileName ?? wholeBatchFileName
    }

    /// Whether `name` is a manifest's file name (`manifest.jsonl`, `manifest.shard-K-of-N.jsonl`).
    public static func isManifestFileName(_ name: String) -> Bool {
        if name == wholeBatchFileName { return true }
        guard name.hasPrefix("manifest.shard-"), name.hasSuffix(".jsonl") else { return false }
        let middle = name.dropFirst("manifest.shard-".count).dropLast(".jsonl".count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", let index = Int(parts[0]), let count = Int(parts[2]) else { return false }
        return (1...max(1, count)).contains(index)
    }

    /// `inputs` without the ones that are the manifest `name` of the folder at `folderPath`
    /// (the same file, links followed), and those: a manifest is never an image, and a run
    /// that took its own manifest for an input (`snap-poem photos/* --output-dir photos`, a
    /// link planted in a folder read) would otherwise be refused as a whole.
    public static func separating(
        _ name: String, inFolderAt folderPath: String, from inputs: [BatchInput], protected: ProtectedFiles
    ) -> (images: [BatchInput], manifests: [BatchInput]) {
        let manifestPath = (folderPath.hasSuffix("/") ? folderPath : folderPath + "/") + name
        // One stat when no input is the manifest (the usual case); one per input when one is.
        guard protected.contains(path: manifestPath) else { return (inputs, []) }
        var images: [BatchInput] = [], manifests: [BatchInput] = []
        for input in inputs {
            if ProtectedFiles(fileSystemPaths: [input.fileSystemPath]).contains(path: manifestPath) {
                manifests.append(input)
            } else {
                images.append(input)
            }
        }
        return (images, manifests)
    }

    /// The manifest files in `folder`, sorted by name.
    public static func files(in folder: OutputFolder) -> [String] {
        folder.names().filter(isManifestFileName)
    }

    /// What one manifest file holds.
    public struct Contents: Sendable, Equatable {
        /// The current entry of each input, in the order inputs first appear.
        public var compacted: [ManifestEntry]
        /// Lines that are not a manifest entry (a torn last line, a newer schema, a line
        /// over the limit).
        public var unreadableLines: Int
        /// Whether one of `unreadableLines` is a torn last line that snap-poem was writing:
        /// bytes after the last newline that begin as every entry line begins
        /// (`{"contentHash":`, keys sorted), as a run killed while it appended leaves.
        public var endsTorn = false
        /// How many of `unreadableLines` are entries of a newer schema than this snap-poem
        /// reads (written by a later version); `compact` refuses to drop them.
        public var newerSchemaLines = 0
        /// The highest schema version among `newerSchemaLines`; nil when there are none.
        public var newestSchemaVersion: Int?

        /// Whether the file is plainly not a manifest snap-poem wrote: it has lines, and none
        /// of them is an entry of any schema, apart from a torn last line (what a run killed
        /// during its first append leaves). Such a file is refused, never rewritten (`compact`).
        public var isForeign: Bool {
            compacted.isEmpty && newerSchemaLines == 0 && unreadableLines > (endsTorn ? 1 : 0)
        }

        /// The current entry of each input, by input. Keyed as Swift compares strings, so two
        /// spellings of one name (composed and decomposed accents) share a key here; the
        /// batch itself keeps them apart (`compacted`).
        public var latest: [String: ManifestEntry] {
            Dictionary(compacted.map { ($0.input, $0) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// Reads the manifest `name` of `folder`; a missing one has no entries.
    ///
    /// - Throws: `SnapPoemError.unreadableFile` for a link, a special file, a file over
    ///   `maximumBytes`, or a read error.
    public static func read(_ name: String, in folder: OutputFolder) throws(SnapPoemError) -> Contents {
        try read(name, in: folder, within: maximumBytes).contents
    }

    /// `read(_:in:)`, refusing a file over `budget` bytes (`maximumBytes`, or what other
    /// manifests of the folder left of it: the refusal then says so); with the bytes read.
    static func read(_ name: String, in folder: OutputFolder, within budget: Int) throws(SnapPoemError) -> (contents: Contents, bytes: Int)
    {
        let descriptor: Int32
        do throws(SnapPoemError) {
            descriptor = try folder.open(name, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            if case .fileNotFound = error { return (Contents(compacted: [], unreadableLines: 0), 0) }
            throw error
        }
        defer { close(descriptor) }
        let shown = folder.shownPath(name)
        // The file alone over the bound, or only with the other manifests read before it.
        func limit(for bytes: Int) -> String {
            bytes > maximumBytes
                ? "the limit of \(ByteCount.describe(maximumBytes))"
                : "the limit of \(ByteCount.describe(maximumBytes)) for all the manifests of the folder together"
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, Int(status.st_size) > budget {
            throw .unreadableFile(
                path: shown, reason: "the manifest is \(ByteCount.describe(Int(status.st_size))), over \(limit(for: Int(status.st_size)))")
        }
        var parser = Parser(maximumEntries: maximumEntries)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadableFile(path: shown, reason: InputFile.systemReason(errno))
            }
            if count == 0 { break }
            total += count
            guard total <= budget else {
                throw .unreadableFile(path: shown, reason: "the manifest holds more than \(limit(for: total))")
            }
            buffer.withUnsafeBytes { parser.add(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            guard !parser.isOverEntryLimit else {
                throw .unreadableFile(
                    path: shown,
                    reason:
                        "the manifest holds entries for more than \(InputCollection.grouped(maximumEntries)) images, the most a batch can have"
                )
            }
        }
        return (parser.finish(), total)
    }

    /// The entries of a manifest's bytes: one JSON object a line; a line that is not an
    /// entry of the current schema is counted, never trusted.
    static func parse(_ data: Data) -> Contents {
        var parser = Parser(maximumEntries: .max)
        data.withUnsafeBytes { parser.add($0) }
        return parser.finish()
    }

    /// Keeps the current entry of each input while lines stream in.
    struct Parser {
        private var framer = LineFramer(maximumLineBytes: BatchManifest.maximumLineBytes)
        private let decoder = JSONDecoder()
        private var order: [ExactName] = []
        private var current: [ExactName: ManifestEntry] = [:]
        private var unreadable = 0
        private var newer = 0
        private var newestVersion: Int?
        private let maximumEntries: Int
        /// Whether entries for more than `maximumEntries` inputs came in; the rest are not kept.
        private(set) var isOverEntryLimit = false

        init(maximumEntries: Int) {
            self.maximumEntries = maximumEntries
        }

        /// Only the schema version of a line, to tell a newer snap-poem's entry from garbage.
        private struct Versioned: Decodable { let schemaVersion: Int }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            framer.append(bytes)
            while let piece = framer.next() {
                switch piece {
                case .line(let line): take(line)
                case .tooLong: unreadable += 1
                }
            }
        }

        private mutating func take(_ line: Data) {
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { return }
            guard let entry = try? decoder.decode(ManifestEntry.self, from: line), entry.schemaVersion == ManifestEntry.currentSchemaVersion
            else {
                unreadable += 1
                if let version = (try? decoder.decode(Versioned.self, from: line))?.schemaVersion,
                    version > ManifestEntry.currentSchemaVersion
                {
                    newer += 1
                    newestVersion = max(newestVersion ?? version, version)
                }
                return
            }
            let input = ExactName(entry.input)
            if let earlier = current[input] {
                if entry.status == .cancelled, earlier.status != .cancelled { return }
            } else {
                guard current.count < maximumEntries else {
                    isOverEntryLimit = true
                    return
                }
                order.append(input)
            }
            current[input] = entry
        }

        /// How every entry line starts: `ManifestEntry.line` sorts its keys.
        private static let entryStart = Array(#"{"contentHash":"#.utf8)

        /// Whether `line`, a last line without its newline, is the start of an entry line
        /// (what a killed append leaves) rather than someone's own text.
        static func isTornEntry(_ line: Data) -> Bool {
            line.count <= entryStart.count ? entryStart.starts(with: line) : line.starts(with: entryStart)
        }

        /// The contents, counting a torn last line (bytes after the last newline).
        mutating func finish() -> Contents {
            var torn = false
            if framer.pendingBytes > 0 {
                framer.append([0x0A])
                while let piece = framer.next() {
                    switch piece {
                    case .line(let line):
                        let before = unreadable
                        take(line)
                        torn = unreadable > before && Self.isTornEntry(line)
                    case .tooLong: unreadable += 1
                    }
                }
            }
            return Contents(
                compacted: order.compactMap { current[$0] }, unreadableLines: unreadable, endsTorn: torn,
                newerSchemaLines: newer, newestSchemaVersion: newestVersion)
        }
    }

    /// Rewrites the manifest `name` of `folder` with one line per input (its current one),
    /// atomically; a missing file is left missing.
    ///
    /// A file of that name that is one of the run's inputs (`protected`), that is plainly
    /// not a manifest (`Contents.isForeign`: someone's own `manifest.jsonl`), or that holds
    /// entries of a newer schema (a later snap-poem's, which this one would drop), is refused
    /// and left as it is.
    ///
    /// - Returns: how many lines could not be read and were left out (the caller says so).
    /// - Throws: `SnapPoemError.outputNotWritten` when the file is refused, or cannot be
    ///   read or replaced.
    @discardableResult
    public static func compact(
        _ name: String, in folder: OutputFolder, protecting protected: ProtectedFiles = [], unfinished: UnfinishedFiles? = nil
    ) throws(SnapPoemError) -> Int {
        guard try folder.hasFile(at: name) else { return 0 }
        let shown = folder.shownPath(name)
        if folder.holds(protected, at: name) {
            throw .outputNotWritten(path: shown, reason: "it is one of the run's inputs; snap-poem never overwrites its inputs")
        }
        let contents: Contents
        do throws(SnapPoemError) {
            contents = try read(name, in: folder)
        } catch {
            throw .outputNotWritten(path: shown, reason: error.description)
        }
        if contents.isForeign {
            throw .outputNotWritten(
                path: shown,
                reason:
                    "it holds no line of a snap-poem manifest, and snap-poem does not replace a file it did not write; move it, or choose another output folder"
            )
        }
        if let version = contents.newestSchemaVersion {
            let lines = contents.newerSchemaLines
            throw .outputNotWritten(
                path: shown,
                reason:
                    "\(lines) of its lines \(lines == 1 ? "was" : "were") written by a newer snap-poem (manifest schema \(version); this one reads \(ManifestEntry.currentSchemaVersion)), and rewriting it would drop \(lines == 1 ? "it" : "them"); run the newer snap-poem, or choose another output folder"
            )
        }
        var data = Data()
        for entry in contents.compacted { data.append(entry.line) }
        try folder.write(data, to: name, overwrite: true, protecting: protected, unfinished: unfinished)
        return contents.unreadableLines
    }
}

/// Appends entries to one manifest file of an output folder, each as one `write` of a
/// whole line, so that a reader or a killed run sees only whole lines (or a torn last one,
/// which readers skip). An append that fails (a full disk) is undone: the file is cut back
/// to where it was, so that no torn line is left for the next append to run into.
public final class ManifestWriter: Sendable {
    /// The manifest's path, as messages show it.
    public let path: String
    private let descriptor: Locked<Int32>

    /// Opens (creating) the manifest `name` of `folder` for appending, without following a
    /// link. A file that does not end with a newline (the torn last line of a killed run)
    /// gets one first, so that the next entry starts a line.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when the file cannot be opened (a link, a
    ///   special file, permissions).
    public init(_ name: String, in folder: OutputFolder) throws(SnapPoemError) {
        let file = try folder.open(name, flags: O_RDWR | O_CREAT | O_APPEND)
        var info = stat()
        if fstat(file, &info) == 0, info.st_size > 0 {
            var last: UInt8 = 0
            if pread(file, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A {
                _ = Self.writeAll(file, Data([0x0A]))
            }
        }
        self.path = folder.shownPath(name)
        self.descriptor = Locked(file)
    }

    /// Appends one entry.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when the write fails (disk full); the file
    ///   is then as it was before.
    public func append(_ entry: ManifestEntry) throws(SnapPoemError) {
        let line = entry.line
        let failure = descriptor.withLock { file -> Int32? in
            guard file >= 0 else { return EBADF }
            var info = stat()
            let size = fstat(file, &info) == 0 ? info.st_size : -1
            guard let failure = Self.writeAll(file, line) else { return nil }
            if size >= 0 { _ = ftruncate(file, size) }
            return failure
        }
        if let failure {
            throw .outputNotWritten(path: path, reason: String(cString: strerror(failure)).lowercased())
        }
    }

    /// Flushes the file to disk and closes it; later appends fail.
    public func close() {
        descriptor.withLock { file in
            guard file >= 0 else { return }
            _ = fsync(file)
            _ = Foundation.close(file)
            file = -1
        }
    }

    deinit {
        close()
    }

    /// Writes all of `data`; returns the `errno` of a failure.
    private static func writeAll(_ file: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = write(file, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
