import Foundation
import Testing

@testable import SnapPoem

@Suite("The manifests of an output folder: streamed with bounds, merged by one rule, never through a link")
struct ManifestSetTests {
    static func entry(_ input: String, _ status: ManifestEntry.Status, at seconds: TimeInterval) -> ManifestEntry {
        ManifestEntry(
            input: input, path: "in/" + input, contentHash: "sha256:c", optionsHash: "sha256:o", status: status,
            finishedAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    static func write(_ entries: [ManifestEntry], to name: String, in folder: URL) throws {
        try entries.reduce(Data()) { $0 + $1.line }.write(to: folder.appendingPathComponent(name))
    }

    @Test("Across files the latest line counts, the run's own on a tie; cancelled lines say nothing; duplicates are listed")
    func merging() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.write(
            [Self.entry("a.png", .ok, at: 10), Self.entry("b.png", .failed, at: 10), Self.entry("c.png", .ok, at: 5)],
            to: "manifest.shard-1-of-2.jsonl", in: url)
        try Self.write(
            [Self.entry("a.png", .skipped, at: 20), Self.entry("b.png", .ok, at: 10), Self.entry("c.png", .cancelled, at: 30)],
            to: "manifest.shard-2-of-2.jsonl", in: url)
        let folder = try OutputFolder(creatingAt: url.path)
        let merged = try ManifestSet(reading: folder, own: "manifest.shard-2-of-2.jsonl")
        #expect(merged.files == ["manifest.shard-1-of-2.jsonl", "manifest.shard-2-of-2.jsonl"])
        #expect(merged.record(for: "a.png")?.entry.status == .skipped, "the later line")
        #expect(merged.record(for: "a.png")?.files == ["manifest.shard-1-of-2.jsonl", "manifest.shard-2-of-2.jsonl"])
        #expect(merged.record(for: "b.png")?.entry.status == .ok, "on a tie, the run's own manifest")
        #expect(merged.record(for: "b.png")?.file == "manifest.shard-2-of-2.jsonl")
        #expect(merged.record(for: "c.png")?.entry.status == .ok, "a cancelled line says nothing about the output")
        #expect(merged.record(for: "c.png")?.files == ["manifest.shard-1-of-2.jsonl"])
        let other = try ManifestSet(reading: folder)
        #expect(other.record(for: "b.png")?.entry.status == .failed, "with no own manifest, the first file on a tie")
    }

    @Test("In one file, a cancelled line does not replace the line before it")
    func cancelledInOneFile() {
        let data = Self.entry("a.png", .ok, at: 1).line + Self.entry("a.png", .cancelled, at: 2).line
        let contents = BatchManifest.parse(data)
        #expect(contents.compacted.map(\.status) == [.ok])
    }

    @Test("A line over the bound is one unreadable line, never held whole; the lines after it are read")
    func longLine() {
        var data = Data(repeating: 0x7B, count: BatchManifest.maximumLineBytes + 10)
        data.append(0x0A)
        data += Self.entry("a.png", .ok, at: 1).line
        let contents = BatchManifest.parse(data)
        #expect(contents.unreadableLines == 1)
        #expect(contents.compacted.map(\.input) == ["a.png"])
    }

    @Test("A manifest over the size bound is refused from its size, before a byte is read")
    func tooLarge() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        let path = url.appendingPathComponent("manifest.jsonl").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(truncate(path, off_t(3) << 29) == 0)
        let folder = try OutputFolder(creatingAt: url.path)
        #expect(
            throws: SnapPoemError.unreadableFile(
                path: folder.shownPath("manifest.jsonl"), reason: "the manifest is 1.5 GiB, over the limit of 1 GiB")
        ) {
            _ = try BatchManifest.read("manifest.jsonl", in: folder)
        }
    }

    @Test("The manifests of a folder share one size bound, refused from their sizes before the one past it is read")
    func sizeBoundShared() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        // Two sparse files of 600 MiB each: each under the bound alone, over it together.
        for name in ["manifest.shard-1-of-2.jsonl", "manifest.shard-2-of-2.jsonl"] {
            let path = url.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            #expect(truncate(path, off_t(600) << 20) == 0)
        }
        let folder = try OutputFolder(creatingAt: url.path)
        let started = ContinuousClock.now
        #expect(
            throws: SnapPoemError.unreadableFile(
                path: folder.shownPath("manifest.shard-2-of-2.jsonl"),
                reason: "the manifest is 600 MiB, over the limit of 1 GiB for all the manifests of the folder together")
        ) {
            _ = try ManifestSet(reading: folder)
        }
        // The first was read (600 MiB of zero bytes, one long line): seconds, not a second file.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("An entry keeps the first 64 warnings and messages and 32 earlier outputs, however many its line lists")
    func listsBounded() throws {
        var entry = Self.entry("a.png", .failed, at: 1)
        entry.messages = Array(repeating: "", count: 100_000)
        entry.warnings = Array(repeating: "w", count: 1_000)
        entry.earlierOutputs = (0..<500).map { ManifestEntry.WrittenOutput(output: "o\($0).txt", outputHash: "sha256:h") }
        let line = entry.line
        #expect(line.count < BatchManifest.maximumLineBytes)
        let read = BatchManifest.parse(line).compacted
        #expect(read.count == 1)
        #expect(read.first?.messages.count == ManifestEntry.listLimit)
        #expect(read.first?.warnings.count == ManifestEntry.listLimit)
        #expect(read.first?.earlierOutputs.count == ManifestEntry.earlierOutputsLimit)
        #expect(read.first?.earlierOutputs.last?.output == "o31.txt", "the first ones")
        let made = ManifestEntry(
            input: "b.png", path: "b.png", contentHash: nil, optionsHash: "sha256:o", status: .ok,
            warnings: Array(repeating: "w", count: 100), messages: Array(repeating: "m", count: 100))
        #expect(made.warnings.count == ManifestEntry.listLimit && made.messages.count == ManifestEntry.listLimit)
    }

    @Test("A line whose finishedAt is not a time in snap-poem's form is unreadable: it cannot win every comparison")
    func finishedAtChecked() throws {
        let good = Self.entry("a.png", .ok, at: 1)
        #expect(ManifestEntry.isTimestamp(good.finishedAt), "\(good.finishedAt)")
        for stamp in ["9999999999999999999999", "zzz", "2026-12-01 12:34:56Z", "2026-12-01T12:34:56+01", "2026-1a-01T12:34:56Z"] {
            var forged = Self.entry("b.png", .ok, at: 2)
            forged.finishedAt = stamp
            let contents = BatchManifest.parse(good.line + forged.line)
            #expect(contents.compacted.map(\.input) == ["a.png"], "\(stamp)")
            #expect(contents.unreadableLines == 1)
        }
    }

    @Test("A manifest holding entries for more images than a batch can have is refused, not kept whole")
    func entryBound() throws {
        var parser = BatchManifest.Parser(maximumEntries: 3)
        let lines = (0..<5).reduce(Data()) { $0 + Self.entry("\($1).png", .ok, at: 1).line }
        lines.withUnsafeBytes { parser.add($0) }
        #expect(parser.isOverEntryLimit)
        #expect(parser.finish().compacted.map(\.input) == ["0.png", "1.png", "2.png"])
    }

    @Test("A manifest that is a symbolic link is neither read nor written through")
    func linkRefused() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        let victim = url.appendingPathComponent("victim.txt")
        try Data("keep me\n".utf8).write(to: victim)
        let out = url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("manifest.jsonl").path, withDestinationPath: victim.path)
        let folder = try OutputFolder(creatingAt: out.path)
        #expect(throws: SnapPoemError.self) { _ = try ManifestSet(reading: folder) }
        #expect(throws: SnapPoemError.self) { _ = try ManifestWriter("manifest.jsonl", in: folder) }
        #expect(throws: SnapPoemError.self) { try BatchManifest.compact("manifest.jsonl", in: folder) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
    }
}
