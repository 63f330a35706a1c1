import Foundation
import Testing

/// The bad-input corpus: every class of bad input, file, option or environment the
/// hardening review tried, each with its defined outcome. Every run must end by itself with
/// its exit code (never a signal), write exactly the diagnostic lines it is meant to (one
/// error line naming the file, escaped; only the image codecs' own documented lines
/// besides), nothing on standard output unless a poem was read, leave the folder as it
/// found it, and stay within its memory bound.
@Suite("The bad-input corpus: one defined outcome per class")
struct BadInputCorpusTests {
    /// One class of bad input.
    struct BadInput: Sendable, CustomTestStringConvertible {
        /// What the class is.
        let name: String
        /// The exit code it must end with.
        let exitCode: Int32
        /// Prepares the files in `folder` and says how to run snap-poem.
        let prepare: @Sendable (_ folder: URL) throws -> Invocation
        /// Each diagnostic line: it starts with the text before the first `…` and contains
        /// the other pieces in order. `{file}` stands for the invocation's `named` path as
        /// snap-poem shows it (escaped).
        let lines: [String]
        /// Whether a poem (possibly empty) may be written to standard output.
        var writesOutput = false
        /// The most resident memory the run may use, in MiB.
        var memoryBound = 700
        /// Why the class cannot run here (not root), or nil.
        var unavailable: String? = nil

        var testDescription: String { name }
    }

    /// How to run snap-poem for one class.
    struct Invocation {
        var arguments: [String]
        /// The file the error line must name.
        var named: String = ""
        var input: Spawned.Input = .empty
        var output: Spawned.Output = .captured
        var memoryLimitKilobytes: Int? = nil
        /// Kept alive for the run (a mounted file system).
        var keepAlive: AnyObject? = nil
    }

    static let seeds = Fixtures.root.appendingPathComponent("Fuzz/Corpus/image")
    static let lenore = Fixtures.sample("Lenore.png")

    /// A copy of seed `name` in `folder`, changed by `edit`; its path.
    static func seed(_ name: String, in folder: URL, as newName: String? = nil, _ edit: (inout [UInt8]) -> Void = { _ in }) throws -> String
    {
        var bytes = [UInt8](try Data(contentsOf: seeds.appendingPathComponent(name)))
        edit(&bytes)
        let path = folder.appendingPathComponent(newName ?? name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A file of `bytes` in `folder`; its path.
    static func file(_ name: String, in folder: URL, _ bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs on an image file made by `make`, expecting one error line containing `error`.
    static func image(
        _ name: String, _ error: String, exitCode: Int32 = 1, _ make: @escaping @Sendable (URL) throws -> String
    ) -> BadInput {
        BadInput(
            name: name, exitCode: exitCode,
            prepare: { folder in
                let path = try make(folder)
                return Invocation(arguments: [path], named: path)
            }, lines: ["snap-poem: error: {file}: …" + error])
    }

    static let damaged = "data is damaged or truncated and could not be decoded"
    static let tooLarge = "pixels, over the limit of 150 megapixels and 65000 pixels a side"

    static let all: [BadInput] = [
        image("a missing file", "no such file") { $0.appendingPathComponent("missing.png").path },
        image("an empty file", "the file is empty (0 bytes), not an image") { try file("empty.png", in: $0, []) },
        image("six bytes", "not an image snap-poem can read (only 6 bytes)") { try seed("short.png", in: $0) },
        image("plain text named .png", "(the data is plain text)") { try seed("text.png", in: $0) },
        image("a PDF", "(the data is a PDF; export its pages as images first, e.g. pdftoppm -r 300 -png FILE.pdf page)") {
            try seed("pdf.png", in: $0)
        },
        // libheif reads HEIC and AVIF; a file that ends after its brands is damaged.
        image("a HEIC that is only its brands", "the HEIC " + damaged) { try seed("heic.jpg", in: $0) },
        image("an AVIF that is only its brands", "the AVIF " + damaged) {
            try file("a.avif", in: $0, [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))
        },
        image("random bytes", "(unrecognised data)") { folder in
            var state: UInt32 = 12345
            let bytes = (0..<4096).map { _ -> UInt8 in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16) | 0x80
            }
            return try file("noise.jpg", in: folder, bytes)
        },
        image("a truncated PNG", "the PNG " + damaged) { try seed("png-truncated.png", in: $0) },
        image("a PNG with corrupt compressed data", "the PNG " + damaged) { folder in
            try seed("png-gray-16x8.png", in: folder, as: "crc.png") { bytes in
                let idat = bytes.indices.first { bytes[$0..<($0 + 4)].elementsEqual(Array("IDAT".utf8)) } ?? 0
                bytes[idat + 8] ^= 0xFF
            }
        },
        image("a PNG header claiming 60000×60000", "image is 60000×60000 " + tooLarge) { try seed("png-header-huge.png", in: $0) },
        image("a truncated JPEG", "the JPEG " + damaged) { try seed("jpeg-truncated.jpg", in: $0) },
        image("a JPEG without image data", "the JPEG " + damaged) { try seed("jpeg-exif-only.jpg", in: $0) },
        image("a JPEG header claiming 65500×65500", "image is 65500×65500 " + tooLarge) { folder in
            try seed("jpeg-exif-6.jpg", in: folder, as: "huge.jpg") { bytes in
                guard let sof = bytes.indices.dropLast(9).first(where: { bytes[$0] == 0xFF && [0xC0, 0xC1, 0xC2].contains(bytes[$0 + 1]) })
                else { return }
                bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xDC, 0xFF, 0xDC])
            }
        },
        image("a GIF claiming a 30000×30000 frame", "image is 30000×30000 " + tooLarge) { try seed("gif-frame-30000.gif", in: $0) },
        image("a truncated GIF", "the GIF " + damaged) { try seed("gif-truncated.gif", in: $0) },
        image("a BMP header claiming 100000×100000", "image is 100000×100000 " + tooLarge) { try seed("bmp-header-huge.bmp", in: $0) },
        image("a BMP cut short", "the BMP " + damaged) { try seed("bmp-24-5x3.bmp", in: $0, as: "cut.bmp") { $0.removeLast(10) } },
        image("a run-length compressed BMP", "the BMP " + damaged) { try seed("bmp-8-top-down.bmp", in: $0, as: "rle.bmp") { $0[30] = 1 } },
        image("a TIFF cut short", "the TIFF " + damaged) { try seed("tiff-8x8.tif", in: $0, as: "cut.tif") { $0.removeLast(40) } },
        image("a PNM header claiming 70000×70000", "image is 70000×70000 " + tooLarge) { try seed("pnm-huge.pgm", in: $0) },
        image("a PNM cut short", "the PNM " + damaged) { try file("cut.pgm", in: $0, Array("P5\n8 4\n255\n".utf8) + [1, 2, 3, 4, 5]) },
        image("a WebP cut short", "the WebP " + damaged) { folder in
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza.webp"))))
            return try file("cut.webp", in: folder, Array(bytes.prefix(1000)))
        },
        image("JPEG 2000 signature, then junk", "the JPEG 2000 " + damaged) { folder in
            try file(
                "junk.jp2", in: folder, [0, 0, 0, 0x0C] + Array("jP  \r\n".utf8) + [0x87, 0x0A] + (0..<1024).map { UInt8($0 & 0xFF) })
        },
        image("a 600 MiB file (sparse)", "the input is 600 MiB, over the limit of 512 MiB; nothing was decoded") { folder in
            let path = try file("huge.png", in: folder, [])
            guard truncate(path, 600 << 20) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return path
        },
        image("a FIFO", "not a regular file (a FIFO (named pipe))") { folder in
            let path = folder.appendingPathComponent("fifo.png").path
            guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return path
        },
        image("a name with a line break", "(the data is plain text)") { try file("po\nem.png", in: $0, Array("just some words\n".utf8)) },
        image("a name with a terminal escape", "(the data is plain text)") {
            try file("\u{1B}[2Jx.png", in: $0, Array("just some words\n".utf8))
        },
        image("a name with a bidirectional override", "no such file") { $0.appendingPathComponent("gnp.\u{202E}poem").path },
        BadInput(
            name: "an animated GIF (3 frames)", exitCode: 0,
            prepare: { folder in
                let path = try seed("gif-animated-3.gif", in: folder)
                return Invocation(arguments: [path], named: path)
            },
            lines: [
                "snap-poem: warning: {file}: the GIF holds 3 frames; only the first is read",
                "snap-poem: warning: {file}: no text was found…",
            ],
            writesOutput: true),
        BadInput(
            name: "a TIFF whose directories loop", exitCode: 0,
            prepare: { folder in
                let path = try seed("tiff-loop.tif", in: folder)
                return Invocation(arguments: [path], named: path)
            },
            // Both pages the chain names are read (libtiff reads the directory that loops back once).
            lines: [
                "snap-poem: warning: {file} (page 1 of 2): no text was found…",
                "snap-poem: warning: {file} (page 2 of 2): no text was found…",
            ],
            writesOutput: true),
        BadInput(
            name: "a folder without images", exitCode: 1,
            prepare: { folder in
                let inner = folder.appendingPathComponent("empty")
                try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
                return Invocation(arguments: [inner.path], named: inner.path)
            },
            lines: ["snap-poem: error: {file}: no images in this folder (looked for .png, .jpg…"]),
        BadInput(
            name: "empty standard input", exitCode: 1, prepare: { _ in Invocation(arguments: ["-"], named: "<stdin>") },
            lines: ["snap-poem: error: <stdin>: the file is empty (0 bytes), not an image"]),
        BadInput(
            name: "standard input that never ends", exitCode: 1,
            prepare: { _ in Invocation(arguments: ["-"], named: "<stdin>", input: .endless) },
            lines: ["snap-poem: error: <stdin>: the input holds more, over the limit of 512 MiB; nothing was decoded"], memoryBound: 900),
        BadInput(
            name: "standard input closed", exitCode: 1, prepare: { _ in Invocation(arguments: ["-"], named: "<stdin>", input: .closed) },
            lines: ["snap-poem: error: <stdin>: cannot read the file (standard input is closed)"]),
        BadInput(
            name: "text piped in as the image", exitCode: 1,
            prepare: { _ in Invocation(arguments: ["-"], named: "<stdin>", input: .bytes(Data("Ah, broken is the golden bowl!\n".utf8))) },
            lines: ["snap-poem: error: <stdin>: not an image snap-poem can read (the data is plain text)"]),
        BadInput(
            name: "--replacements naming a FIFO", exitCode: 64,
            prepare: { folder in
                let path = folder.appendingPathComponent("pairs").path
                guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
                return Invocation(arguments: [lenore, "--replacements", path], named: path)
            },
            lines: [
                "snap-poem: error: {file}: cannot read the file (it is a FIFO (named pipe), not a regular file; a replacements file is…",
                "Usage: snap-poem…", "  See 'snap-poem --help'.",
            ]),
        BadInput(
            name: "--replacements over 1 MiB (sparse)", exitCode: 64,
            prepare: { folder in
                let path = try file("pairs.txt", in: folder, Array("# snap-poem replacements v1\n".utf8))
                guard truncate(path, 2 << 20) == 0 else { throw CocoaError(.fileWriteUnknown) }
                return Invocation(arguments: [lenore, "--replacements", path], named: path)
            },
            lines: ["snap-poem: error: {file}:1: the file is larger than 1 MiB…", "Usage: snap-poem…", "  See 'snap-poem --help'."]),
        BadInput(
            name: "--replacements that is not UTF-8", exitCode: 64,
            prepare: { folder in
                let path = try file(
                    "pairs.txt", in: folder, Array("# snap-poem replacements v1\nL\u{e9}nore=Alex\n".utf8) + [0xFF, 0xFE, 0x3D, 0x41, 0x0A])
                return Invocation(arguments: [lenore, "--replacements", path], named: path)
            },
            lines: ["snap-poem: error: {file}:3: not UTF-8 text…", "Usage: snap-poem…", "  See 'snap-poem --help'."]),
        BadInput(
            name: "--replacements without its header", exitCode: 64,
            prepare: { folder in
                let path = try file("pairs.txt", in: folder, Array("Lenore=Alex\n".utf8))
                return Invocation(arguments: [lenore, "--replacements", path], named: path)
            },
            lines: [
                "snap-poem: error: {file}:1: the first line must be '# snap-poem replacements v1'", "Usage: snap-poem…",
                "  See 'snap-poem --help'.",
            ]),
        BadInput(
            name: "--replacements with 10 001 pairs", exitCode: 64,
            prepare: { folder in
                let text = "# snap-poem replacements v1\n" + (0...10_000).map { "w\($0)=x\n" }.joined()
                let path = try file("pairs.txt", in: folder, Array(text.utf8))
                return Invocation(arguments: [lenore, "--replacements", path], named: path)
            },
            lines: ["snap-poem: error: {file}:10002: more than 10000 pairs…", "Usage: snap-poem…", "  See 'snap-poem --help'."]),
        BadInput(
            name: "-o naming a FIFO, with --force", exitCode: 73,
            prepare: { folder in
                let path = folder.appendingPathComponent("out").path
                guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
                return Invocation(arguments: [lenore, "-o", path, "-f", "--format", "text"], named: path)
            },
            lines: ["snap-poem: error: {file}: output not written (it is a FIFO (named pipe), not a regular file…"]),
        BadInput(
            name: "-o naming a folder", exitCode: 73,
            prepare: { folder in Invocation(arguments: [lenore, "-o", folder.path, "--format", "text"], named: folder.path) },
            lines: ["snap-poem: error: {file}: output not written (it is a directory)…"]),
        BadInput(
            name: "-o in a folder that does not exist", exitCode: 73,
            prepare: { folder in
                let path = folder.appendingPathComponent("missing/poem.txt").path
                return Invocation(arguments: [lenore, "-o", path], named: path)
            },
            lines: ["snap-poem: error: {file}: output not written (the folder …/missing does not exist)…"]),
        BadInput(
            name: "-o ''", exitCode: 64, prepare: { _ in Invocation(arguments: [lenore, "-o", ""]) },
            lines: [
                "snap-poem: error: Invalid value '' for '--output <FILE>': the name is empty.", "Usage: snap-poem…",
                "  See 'snap-poem --help'.",
            ]),
        BadInput(
            name: "-o naming the input", exitCode: 64,
            prepare: { folder in
                let path = try seed("png-gray-16x8.png", in: folder)
                return Invocation(arguments: [path, "-o", path, "--format", "text"], named: path)
            },
            lines: ["snap-poem: error: '--output {file}' is also an input…", "Usage: snap-poem…", "  See 'snap-poem --help'."]),
        BadInput(
            name: "--output-dir that is a file", exitCode: 73,
            prepare: { folder in
                let image = try seed("png-gray-16x8.png", in: folder)
                let blocker = try file("texts", in: folder, Array("x".utf8))
                return Invocation(arguments: [image, "--output-dir", blocker], named: blocker)
            },
            lines: [
                "snap-poem: error: {file}: output not written (it is a file, not a folder)…"
            ]),
        BadInput(
            name: "--tessdata naming a folder without models", exitCode: 69,
            prepare: { folder in Invocation(arguments: [lenore, "--tessdata", folder.path], named: folder.path) },
            lines: ["snap-poem: error: no tessdata folder found; looked in: {file}; name one, or set TESSDATA_PREFIX (--tessdata DIR)"]),
        BadInput(
            name: "a language without data", exitCode: 69, prepare: { _ in Invocation(arguments: [lenore, "-l", "deu"]) },
            lines: ["snap-poem: error: language 'deu' not found in tessdata at …"]),
        BadInput(
            name: "-c of an unknown variable", exitCode: 69, prepare: { _ in Invocation(arguments: [lenore, "-c", "no_such_variable=1"]) },
            lines: ["snap-poem: error: Tesseract variable 'no_such_variable': Tesseract has no variable of that name"]),
        BadInput(
            name: "-c of a process-wide variable", exitCode: 69,
            prepare: { _ in Invocation(arguments: [lenore, "-c", "debug_file=/tmp/x"]) },
            lines: ["snap-poem: error: Tesseract variable 'debug_file': it is process-wide in Tesseract…"]),
        BadInput(
            name: "standard output closed", exitCode: 74, prepare: { _ in Invocation(arguments: ["--version"], output: .closed) },
            lines: ["snap-poem: error: cannot write to standard output (standard output is closed)…"]),
        BadInput(
            name: "standard output a pipe nobody reads", exitCode: 74,
            prepare: { _ in Invocation(arguments: ["--version"], output: .brokenPipe) },
            lines: ["snap-poem: error: cannot write to standard output (the reader closed the pipe)…"]),
        BadInput(
            name: "standard output on a full disk", exitCode: 74,
            prepare: { _ in
                let disk = try TinyFileSystem()
                return Invocation(arguments: ["--version"], output: .file(disk.path("out.txt")), keepAlive: disk)
            },
            lines: ["snap-poem: error: cannot write to standard output (no space left on device)…"], unavailable: TinyFileSystem.unavailable
        ),
        BadInput(
            name: "-o on a full disk", exitCode: 73,
            prepare: { _ in
                let disk = try TinyFileSystem()
                let path = disk.path("poem.txt")
                return Invocation(arguments: [lenore, "-o", path], named: path, keepAlive: disk)
            },
            lines: ["snap-poem: error: {file}: output not written (no space left on device); nothing was left behind"],
            unavailable: TinyFileSystem.unavailable),
        BadInput(
            name: "150 MB of address space (ulimit -v)", exitCode: 69,
            prepare: { _ in Invocation(arguments: [lenore], memoryLimitKilobytes: 150 * 1024) },
            lines: ["snap-poem: error: …"], unavailable: Spawned.memoryLimitsUnavailable),
    ]

    /// Lines the image codecs print themselves before snap-poem's line (see README, Notes).
    static let codecPrefixes = ["libpng ", "Corrupt JPEG data", "Premature end of JPEG file", "JPEG datastream", "Not a JPEG file"]

    /// The classes written to a full disk: a tmpfs mounted as root (`TinyFileSystem`, a
    /// `RootStep`), which make test leaves to make test-system; a test of their own, so that
    /// make test-system runs them and not the whole corpus again.
    static let onFullDisk = all.filter { $0.name.hasSuffix("on a full disk") }

    @Test("Each class ends as defined", arguments: all.filter { !$0.name.hasSuffix("on a full disk") })
    func badInput(_ input: BadInput) async throws {
        try await Self.check(input)
    }

    @Test("Each class written to a full disk ends as defined", TinyFileSystem.required, arguments: onFullDisk)
    func badInputOnFullDisk(_ input: BadInput) async throws {
        try await Self.check(input)
    }

    /// Runs `input`'s invocation and checks how it ends.
    static func check(_ input: BadInput) async throws {
        if let reason = input.unavailable { try Test.cancel(Comment(rawValue: reason)) }
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let invocation = try input.prepare(folder)
        let before = try Self.listing(folder)
        let run = try await Spawned.run(
            invocation.arguments, input: invocation.input, output: invocation.output,
            memoryLimitKilobytes: invocation.memoryLimitKilobytes, timeout: .seconds(120))
        withExtendedLifetime(invocation.keepAlive) {}
        #expect(!run.timedOut, "hung")
        #expect(run.signal == nil, "killed by signal \(run.signal ?? 0)")
        #expect(run.status == input.exitCode, "exit \(run.status): \(run.error)")
        if !input.writesOutput { #expect(run.output.isEmpty, "standard output: \(String(decoding: run.output, as: UTF8.self))") }
        let lines = run.errorLines.filter { line in !Self.codecPrefixes.contains { line.hasPrefix($0) } }
        let shown = OneLineEscape.escape(invocation.named)
        let expected = input.lines.map { $0.replacingOccurrences(of: "{file}", with: shown) }
        #expect(lines.count == expected.count, "stderr: \(run.error)")
        for (line, pattern) in zip(lines, expected) {
            #expect(Self.matches(String(line), pattern), "'\(line)' does not match '\(pattern)'")
        }
        #expect(try Self.listing(folder) == before, "something was left behind")
        #expect(run.peakMegabytes <= Spawned.memoryBound(input.memoryBound), "peak \(run.peakMegabytes) MiB")
    }

    @Test("The corpus has at least 40 classes")
    func enoughClasses() {
        #expect(Self.all.count >= 40)
        #expect(Set(Self.all.map(\.name)).count == Self.all.count)
        #expect(Self.onFullDisk.count == 2)
    }

    /// Whether `line` starts with the part of `pattern` before the first `…` and contains the
    /// other parts, in order.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        let pieces = pattern.components(separatedBy: "…")
        guard line.hasPrefix(pieces[0]) else { return false }
        var rest = line[line.index(line.startIndex, offsetBy: pieces[0].count)...]
        for piece in pieces.dropFirst() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// Every path below `folder` (skipping the contents of mount points' siblings), sorted.
    static func listing(_ folder: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return (enumerator.allObjects as? [String] ?? []).sorted()
    }
}

/// The escaping snap-poem applies to names in diagnostics (`OneLine.escaping`), restated
/// here so the expectation does not just call the code under test.
enum OneLineEscape {
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
