import Foundation
import Synchronization

/// The manifests of an output folder: `manifest.jsonl` for a whole batch and
/// `manifest.shard-K-of-N.jsonl` for each shard, so that shards writing into one shared
/// folder never write the same file. Each is JSON Lines, one `ManifestEntry` per line.
///
/// A manifest is appended to as each image finishes, so a run that is killed leaves every
/// line it finished. When an input appears on several lines of one file, the last one is its
/// current state; a run rewrites its own file with one line per input when it starts and
/// when it ends (atomically, through a temporary file), so that the file stays small. A line
/// that cannot be read (the torn end of a killed run's last write) is ignored and counted.
public enum BatchManifest {
    /// `manifest.jsonl`.
    public static let wholeBatchFileName = "manifest.jsonl"

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
        return parts.count == 3 && parts[1] == "of" && Int(parts[0]) != nil && Int(parts[2]) != nil
    }

    /// The manifest files in `folder`, sorted by name; none when the folder does not exist.
    public static func files(inFolder folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter(isManifestFileName).sorted()
    }

    /// What one manifest file holds.
    public struct Contents: Sendable {
        /// Every readable line, in file order.
        public var entries: [ManifestEntry]
        /// Lines that are not a manifest entry (a torn last line, a newer schema).
        public var unreadableLines: Int

        /// The last entry of each input: its current state.
        public var latest: [String: ManifestEntry] {
            var latest: [String: ManifestEntry] = [:]
            for entry in entries { latest[entry.input] = entry }
            return latest
        }

        /// One entry per input (its last), in the order inputs first appear.
        public var compacted: [ManifestEntry] {
            let latest = self.latest
            var seen: Set<String> = []
            return entries.compactMap { entry in seen.insert(entry.input).inserted ? latest[entry.input] : nil }
        }
    }

    /// Reads a manifest file; a missing or unreadable one (a folder, a FIFO) has no entries.
    public static func read(fileAt path: String) -> Contents {
        // Through the library's reader: a FIFO in its place cannot block the batch, and
        // FoundationEssentials' `contents(atPath:)` leaks its buffer for an empty file.
        guard let data = try? InputFile.read(path, limit: maximumManifestBytes) else {
            return Contents(entries: [], unreadableLines: 0)
        }
        return parse(data)
    }

    /// The largest manifest read back: a million pages at about 700 bytes a line, with room.
    static let maximumManifestBytes = 1 << 32

    /// The entries of a manifest's bytes: one JSON object a line; a line that is not an
    /// entry of the current schema is counted, never trusted.
    static func parse(_ data: Data) -> Contents {
        let decoder = JSONDecoder()
        var entries: [ManifestEntry] = []
        var unreadable = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            if let entry = try? decoder.decode(ManifestEntry.self, from: Data(line)),
                entry.schemaVersion == ManifestEntry.currentSchemaVersion
            {
                entries.append(entry)
            } else {
                unreadable += 1
            }
        }
        return Contents(entries: entries, unreadableLines: unreadable)
    }

    /// Rewrites a manifest with one line per input (its last), atomically; a missing file
    /// is left missing.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when the file cannot be replaced.
    public static func compact(fileAt path: String) throws(SnapPoemError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let contents = read(fileAt: path)
        var data = Data()
        for entry in contents.compacted { data.append(entry.line) }
        try OutputFile.write(data, to: path, overwrite: true)
    }
}

/// Appends entries to one manifest file, each as one `write` of a whole line, so that a
/// reader or a killed run sees only whole lines (or a torn last one, which readers skip).
public final class ManifestWriter: Sendable {
    /// The manifest's path.
    public let path: String
    private let descriptor: Mutex<Int32>

    /// Opens (creating) `path` for appending. A file that does not end with a newline (the
    /// torn last line of a killed run) gets one first, so that the next entry starts a line.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when the file cannot be opened.
    public init(path: String) throws(SnapPoemError) {
        let file = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
        guard file >= 0 else {
            throw .outputNotWritten(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        var info = stat()
        if fstat(file, &info) == 0, info.st_size > 0 {
            var last: UInt8 = 0
            if pread(file, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A {
                _ = Self.writeAll(file, Data([0x0A]))
            }
        }
        self.path = path
        self.descriptor = Mutex(file)
    }

    /// Appends one entry.
    ///
    /// - Throws: `SnapPoemError.outputNotWritten` when the write fails (disk full).
    public func append(_ entry: ManifestEntry) throws(SnapPoemError) {
        let line = entry.line
        let failure = descriptor.withLock { file -> Int32? in
            guard file >= 0 else { return EBADF }
            return Self.writeAll(file, line)
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
