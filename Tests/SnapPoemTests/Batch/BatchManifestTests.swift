import Foundation
import SnapPoem
import Testing

@Suite("Batch manifests: JSON Lines that survive a killed run")
struct BatchManifestTests {
    static func entry(_ input: String, _ status: ManifestEntry.Status) -> ManifestEntry {
        ManifestEntry(input: input, path: "in/" + input, contentHash: "sha256:c", optionsHash: "sha256:o", status: status)
    }

    @Test("A line has every key, null where empty, in alphabetical order, and reads back equal")
    func line() throws {
        var entry = Self.entry("a.png", .ok)
        entry.output = "a.txt"
        entry.timings = ManifestEntry.Timings(decodeMs: 1, preprocessMs: 2, recognizeMs: 3, personalizeMs: 4, totalMs: 11)
        let line = String(decoding: entry.line, as: UTF8.self)
        #expect(line.hasSuffix("}\n"))
        #expect(line.split(separator: "\n").count == 1)
        #expect(line.hasPrefix("{\"contentHash\":\"sha256:c\",\"coverage\":null,\"earlierOutputs\":[],\"error\":null,"))
        #expect(line.contains(",\"error\":null,\"failedPages\":[],\"failure\":null,\"finishedAt\":\""))
        #expect(line.contains(",\"pages\":null,\"path\":"))
        #expect(line.contains("\"status\":\"ok\""))
        #expect(try JSONDecoder().decode(ManifestEntry.self, from: entry.line) == entry)
        #expect(ManifestEntry.Status.timedOut.rawValue == "timed-out")
    }

    @Test("A torn last line is skipped and counted; the next append starts a fresh line; compaction keeps the last of each input")
    func tornLineAndCompaction() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("manifest.jsonl").path
        var data = Self.entry("a.png", .cancelled).line + Self.entry("b.png", .ok).line
        data += Self.entry("a.png", .ok).line.prefix(30)
        try data.write(to: URL(fileURLWithPath: path))
        let output = try OutputFolder(creatingAt: folder.path)
        let torn = try BatchManifest.read("manifest.jsonl", in: output)
        #expect(torn.compacted.map(\.input) == ["a.png", "b.png"])
        #expect(torn.unreadableLines == 1)

        let writer = try ManifestWriter("manifest.jsonl", in: output)
        try writer.append(Self.entry("a.png", .ok))
        writer.close()
        // Every line as written: the torn one ended, and the new entry on a line of its own.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let statuses = lines.compactMap { try? JSONDecoder().decode(ManifestEntry.self, from: Data($0.utf8)).status }
        #expect(statuses == [.cancelled, .ok, .ok])
        let appended = try BatchManifest.read("manifest.jsonl", in: output)
        #expect(appended.latest["a.png"]?.status == .ok)

        try BatchManifest.compact("manifest.jsonl", in: output)
        let compacted = try BatchManifest.read("manifest.jsonl", in: output)
        #expect(compacted.compacted.map(\.input) == ["a.png", "b.png"])
        #expect(compacted.compacted.map(\.status) == [.ok, .ok])
        #expect(compacted.unreadableLines == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["manifest.jsonl"])
    }

    @Test(
        "Manifest file names: the whole batch's and one per shard",
        arguments: [
            ("manifest.jsonl", true), ("manifest.shard-2-of-8.jsonl", true), ("manifest.shard-2-8.jsonl", false),
            ("manifest.shard-a-of-8.jsonl", false), ("poems.jsonl", false), ("manifest.shard-10-of-9.jsonl", false),
            ("manifest.shard-0-of-9.jsonl", false), ("manifest.shard--1-of-9.jsonl", false), ("manifest.shard-1-of-1.jsonl", true),
        ])
    func names(name: String, isManifest: Bool) throws {
        #expect(BatchManifest.isManifestFileName(name) == isManifest)
        #expect(BatchManifest.fileName(for: try Shard(index: 2, count: 8)) == "manifest.shard-2-of-8.jsonl")
        #expect(BatchManifest.fileName(for: nil) == "manifest.jsonl")
    }
}
