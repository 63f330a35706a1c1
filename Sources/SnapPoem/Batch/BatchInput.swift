import Foundation

/// One image of a batch: where it is, and the name it goes by in outputs and messages.
///
/// Linux file names are bytes, not text: a name written on another system may not be valid
/// UTF-8. `fileSystemPath` keeps the exact bytes to open; `path` and `relativePath` are the
/// same names for people, with each byte that is not part of valid UTF-8 shown as `\xNN`
/// (`café` written in Latin-1 becomes `caf\xE9`). Outputs are named after `relativePath`.
public struct BatchInput: Sendable, Equatable, Hashable {
    /// The path as shown in messages and results (`-` for standard input).
    public var path: String
    /// The path relative to the folder it was found in (its own path for a file named
    /// directly); outputs in `--output-dir` mirror it.
    public var relativePath: String
    /// The exact bytes of the path, as the file system has them; what is opened.
    public var fileSystemPath: [UInt8]
    /// For an image found in a folder argument: that folder's path with every symbolic link
    /// resolved. Reading refuses a file that turns out to lie outside it (a link there changed
    /// after the folder was listed). Nil for a file named directly, and for every input when
    /// links out of folders are followed (`--follow-links`).
    public var enclosingFolder: [UInt8]?

    /// Creates a batch input for a path given as text.
    public init(path: String, relativePath: String? = nil) {
        self.path = path
        self.relativePath = relativePath ?? path
        self.fileSystemPath = Array(path.utf8)
    }

    /// Creates a batch input from the bytes of a path and of its part below the folder it
    /// was found in; the displayed names are derived with `displayName(of:)`.
    public init(fileSystemPath: [UInt8], relativeFileSystemPath: [UInt8]) {
        self.fileSystemPath = fileSystemPath
        self.path = Self.displayName(of: fileSystemPath)
        self.relativePath = Self.displayName(of: relativeFileSystemPath)
    }

    /// Creates a batch input from names already shown and the bytes to open.
    init(path: String, relativePath: String, fileSystemPath: [UInt8], enclosingFolder: [UInt8]? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.fileSystemPath = fileSystemPath
        self.enclosingFolder = enclosingFolder
    }

    /// Whether this input is standard input.
    public var isStandardInput: Bool { fileSystemPath == [UInt8(ascii: "-")] }

    /// File name extensions taken from folders (case-insensitive); files named directly are
    /// read whatever their name, since formats are recognised from their bytes.
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "gif", "pnm", "pbm", "pgm", "ppm", "jp2", "heic", "heif", "hif",
        "avif",
    ]

    /// Expands the command line's arguments: a file stays as it is (even a missing one, so
    /// that its error is reported in turn), a folder becomes every image below it, in sorted
    /// order, hidden files and folders skipped, symbolic links followed while they stay inside
    /// the folder.
    ///
    /// `InputCollection.collect(_:)` gives the same inputs together with what was noticed on
    /// the way (link loops, folders without images).
    ///
    /// - Throws: the first problem `InputCollection` found (a folder that cannot be listed or
    ///   holds no image).
    public static func collect(_ arguments: [String]) throws(SnapPoemError) -> [BatchInput] {
        let collection = InputCollection.collect(arguments)
        if let problem = collection.problems.first { throw problem }
        return collection.inputs
    }

    /// A file name or path for people: valid UTF-8 as it is, every other byte as `\xNN`, and
    /// a backslash that a literal `x` follows as `\x5C`, so that two names never read the
    /// same (`caf\xE9` typed out, and `caf` with the Latin-1 byte E9, give different names,
    /// and so different outputs and manifest entries).
    public static func displayName(of bytes: [UInt8]) -> String {
        let backslash = UInt8(ascii: "\\"), x = UInt8(ascii: "x")
        let hasLiteralEscape = bytes.indices.dropLast().contains { bytes[$0] == backslash && bytes[$0 + 1] == x }
        if !hasLiteralEscape, let text = String(validating: bytes, as: UTF8.self) { return text }
        var result = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead == backslash, index + 1 < bytes.count, bytes[index + 1] == x {
                result += "\\x5C"
                index += 1
                continue
            }
            let length: Int =
                switch lead {
                case 0x00...0x7F: 1
                case 0xC2...0xDF: 2
                case 0xE0...0xEF: 3
                case 0xF0...0xF4: 4
                default: 0
                }
            if length > 0, index + length <= bytes.count,
                let scalarText = String(validating: bytes[index..<(index + length)], as: UTF8.self)
            {
                result += scalarText
                index += length
            } else {
                result += "\\x" + String(lead, radix: 16, uppercase: true).leftPadded(to: 2, with: "0")
                index += 1
            }
        }
        return result
    }
}

extension String {
    /// The string with `character` added in front up to `width` characters.
    func leftPadded(to width: Int, with character: Character) -> String {
        count >= width ? self : String(repeating: character, count: width - count) + self
    }
}
