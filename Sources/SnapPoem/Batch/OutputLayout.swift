import Foundation

/// How a batch names each input's output inside its output folder: the input's path below
/// its folder argument, its extension replaced by the format's (`sub/a.png` → `sub/a.txt`),
/// or added to it (`--keep-extension`: `sub/a.png.txt`); standard input is `stdin.txt`.
/// Only a path below the folder is kept: one that is absolute or climbs out with `..` is
/// reduced to its file name, so nothing is written outside the folder.
public struct OutputLayout: Sendable, Equatable {
    /// The extension outputs get, without the dot (`ExportFormat.fileExtension`).
    public var fileExtension: String
    /// Whether the input's own extension is kept (`stanza.jpg` → `stanza.jpg.txt`).
    public var keepsExtension: Bool

    /// Creates a layout.
    public init(fileExtension: String, keepsExtension: Bool = false) {
        self.fileExtension = fileExtension
        self.keepsExtension = keepsExtension
    }

    /// The output's path relative to the output folder.
    public func relativePath(for input: BatchInput) -> String {
        let name = keepsExtension ? input.relativePath : (input.relativePath as NSString).deletingPathExtension
        let base = input.isStandardInput ? "stdin" : name
        // Taken apart by bytes (`PathComponents`): a `/` before a combining mark is still a `/`.
        let parts = PathComponents.split(base)
        let staysInside = !PathComponents.isAbsolute(base) && !parts.contains(where: PathComponents.isParent)
        let relative =
            staysInside
            ? parts.filter { !PathComponents.isCurrent($0) }.joined(separator: "/") : parts.last ?? base
        return relative + "." + fileExtension
    }

    /// The first two inputs that would be written to the same output (`a.png` and `a.jpg`
    /// both give `a.txt`), and that output; nil when every output is its own.
    public func firstClash(in inputs: [BatchInput]) -> (first: BatchInput, second: BatchInput, output: String)? {
        var seen: [ExactName: BatchInput] = [:]
        for input in inputs {
            let output = relativePath(for: input)
            if let earlier = seen[ExactName(output)] { return (earlier, input, output) }
            seen[ExactName(output)] = input
        }
        return nil
    }

    /// The first input whose output is a file where another input's output needs a folder
    /// (`a.png` gives `a.txt`, and `a.txt/b.png` gives `a.txt/b.txt`), with both outputs;
    /// nil when there is none. Found before anything is read: otherwise the image read
    /// second would be read for nothing, and fail each rerun again.
    public func firstFileInTheWay(in inputs: [BatchInput]) -> (file: BatchInput, output: String, nested: BatchInput, nestedOutput: String)?
    {
        var outputs: [ExactName: (BatchInput, String)] = [:]
        for input in inputs {
            let output = relativePath(for: input)
            outputs[ExactName(output)] = (input, output)
        }
        for input in inputs {
            let output = relativePath(for: input)
            let parts = PathComponents.split(output)
            guard parts.count > 1 else { continue }
            var folder = ""
            for part in parts.dropLast() {
                folder = folder.isEmpty ? part : folder + "/" + part
                if let (file, fileOutput) = outputs[ExactName(folder)] { return (file, fileOutput, input, output) }
            }
        }
        return nil
    }

    /// The first two inputs that are one file given twice (`a.png a.png`, `poems poems`,
    /// `a.png ./a.png`, a link and its target) and would be written to the same output,
    /// and that output; nil when there are none. Whatever the layout, such a clash remains:
    /// a batch says so before it says anything about names.
    public func firstRepeat(in inputs: [BatchInput]) -> (first: BatchInput, second: BatchInput, output: String)? {
        var seen: [ExactName: [(BatchInput, FileIdentity?)]] = [:]
        for input in inputs where !input.isStandardInput {
            let output = relativePath(for: input)
            let identity = FileIdentity(of: input.fileSystemPath)
            for (earlier, earlierIdentity) in seen[ExactName(output)] ?? [] {
                let same = earlier.fileSystemPath == input.fileSystemPath || (identity != nil && identity == earlierIdentity)
                if same { return (earlier, input, output) }
            }
            seen[ExactName(output), default: []].append((input, identity))
        }
        return nil
    }

    /// A file's device and inode (links followed); nil when it cannot be found.
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(of path: [UInt8]) {
            var status = stat()
            let found = (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
            }
            guard found else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
