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
        let parts = base.split(separator: "/")
        let staysInside = !base.hasPrefix("/") && !parts.contains("..")
        let relative = staysInside ? parts.filter { $0 != "." }.joined(separator: "/") : (base as NSString).lastPathComponent
        return relative + "." + fileExtension
    }

    /// The first two inputs that would be written to the same output (`a.png` and `a.jpg`
    /// both give `a.txt`), and that output; nil when every output is its own.
    public func firstClash(in inputs: [BatchInput]) -> (first: BatchInput, second: BatchInput, output: String)? {
        var seen: [String: BatchInput] = [:]
        for input in inputs {
            let output = relativePath(for: input)
            if let earlier = seen[output] { return (earlier, input, output) }
            seen[output] = input
        }
        return nil
    }
}
