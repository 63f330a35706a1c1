import Foundation

/// One image of a batch: where it is, and the name it goes by in outputs.
public struct BatchInput: Sendable, Equatable, Hashable {
    /// The path to read (`-` for standard input).
    public var path: String
    /// The path relative to the folder it was found in (its own path for a file named
    /// directly); outputs in `--output-dir` mirror it.
    public var relativePath: String

    /// Creates a batch input.
    public init(path: String, relativePath: String? = nil) {
        self.path = path
        self.relativePath = relativePath ?? path
    }

    /// File name extensions taken from folders (case-insensitive); files named directly are
    /// read whatever their name, since formats are recognised from their bytes.
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "gif", "pnm", "pbm", "pgm", "ppm", "jp2",
    ]

    /// Expands the command line's arguments: a file stays as it is (even a missing one, so
    /// that its error is reported in turn), a folder becomes every image below it, in sorted
    /// order, hidden files and folders skipped.
    ///
    /// - Throws: `SnapPoemError.unreadableFile` for a folder that cannot be listed.
    public static func collect(_ arguments: [String]) throws(SnapPoemError) -> [BatchInput] {
        var inputs: [BatchInput] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard argument != "-", FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                inputs.append(BatchInput(path: argument))
                continue
            }
            inputs.append(contentsOf: try images(inFolder: argument))
        }
        return inputs
    }

    private static func images(inFolder folder: String) throws(SnapPoemError) -> [BatchInput] {
        let root = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles, .skipsPackageDescendants])
        else {
            throw .unreadableFile(path: folder, reason: "the folder cannot be listed")
        }
        var found: [BatchInput] = []
        let rootPath = root.standardizedFileURL.path
        for case let url as URL in enumerator {
            guard imageExtensions.contains(url.pathExtension.lowercased()),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let full = url.standardizedFileURL.path
            var relative = full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : url.lastPathComponent
            if relative.isEmpty { relative = url.lastPathComponent }
            let shown = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
            found.append(BatchInput(path: shown, relativePath: relative))
        }
        return found.sorted { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
    }
}

/// A part of a batch for one machine: shard `index` (1-based) of `count`.
///
/// Inputs are dealt round-robin in their sorted order, so every input belongs to exactly one
/// shard, the shards differ in size by at most one, and any scheduler that runs
/// `--shard 1/N` … `--shard N/N` (one per machine or job) covers the whole batch.
public struct Shard: Sendable, Equatable {
    /// Which shard, from 1 to `count`.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// Creates a shard; `index` must be in 1...count.
    public init(index: Int, count: Int) throws(SnapPoemError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidOption(option: "--shard", reason: "'\(index)/\(count)' must be K/N with 1 ≤ K ≤ N")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `2/8`.
    public init(parsing text: String) throws(SnapPoemError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidOption(option: "--shard", reason: "'\(text)' is not K/N, e.g. 2/8")
        }
        try self.init(index: index, count: count)
    }

    /// The inputs of this shard, in their original order.
    public func select<T>(_ inputs: [T]) -> [T] {
        inputs.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
