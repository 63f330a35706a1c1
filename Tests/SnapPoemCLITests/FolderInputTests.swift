import Foundation
import Testing

@Suite("Folders as a user has them: symbolic links, loops, names that are not UTF-8, empty folders")
struct FolderInputTests {
    @Test(
        "Links inside are followed, one leading out only with --follow-links, a loop is reported once, a name not in UTF-8 is read and named"
    )
    func linksLoopsAndNames() async throws {
        let input = try BatchFixtures.folder(["sub/a.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        let elsewhere = try BatchFixtures.folder(["far.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(input, output, elsewhere) }
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("linked.jpg").path, withDestinationPath: "sub/a.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("away").path, withDestinationPath: elsewhere.path)
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        // "café.jpg" with é in Latin-1 (0xE9): not UTF-8.
        let latin1 = Array(input.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let source = try Data(contentsOf: URL(fileURLWithPath: BatchFixtures.small))
        let descriptor = (latin1 + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = source.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        close(descriptor)

        // By default the link out of the folder is a warning and the rest is read.
        let confined = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2"])
        #expect(confined.status == 0, "\(confined.error)")
        let resolved = URL(fileURLWithPath: elsewhere.path).resolvingSymlinksInPath().path
        let warning =
            "\(input.path)/away: symbolic link not followed: it leads out of \(input.path), to \(resolved) (--follow-links)"
        #expect(confined.error.contains("snap-poem: warning: \(warning)\n"), "\(confined.error)")
        #expect(
            confined.error.hasSuffix("snap-poem: 3 images: 3 written, 0 skipped (done before), 0 failed, 0 cancelled\n"),
            "\(confined.error)")
        #expect(try BatchFixtures.files(output) == ["caf\\xE9.txt", "linked.txt", "manifest.jsonl", "sub/a.txt"])
        let first = try BatchFixtures.manifest(output)
        #expect(first["caf\\xE9.jpg"]?["path"] as? String == input.path + "/caf\\xE9.jpg")
        #expect(first["caf\\xE9.jpg"]?["status"] as? String == "ok")

        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2", "--follow-links"])
        #expect(run.status == 0, "\(run.error)")
        let loopLines = run.error.split(separator: "\n").filter { $0.contains("loop") }
        #expect(loopLines == ["snap-poem: warning: \(input.path)/sub/up: symbolic link to a folder above it (a loop), not followed"])
        #expect(run.error.hasSuffix("snap-poem: 4 images: 1 written, 3 skipped (done before), 0 failed, 0 cancelled\n"), "\(run.error)")
        #expect(try BatchFixtures.files(output) == ["away/far.txt", "caf\\xE9.txt", "linked.txt", "manifest.jsonl", "sub/a.txt"])
        #expect(try BatchFixtures.manifest(output)["away/far.jpg"]?["status"] as? String == "ok")
    }

    @Test("A folder named as an input that holds no image is an error naming it; the other inputs are still read")
    func emptyFolder() async throws {
        let empty = try BatchFixtures.folder(["notes.txt": BatchFixtures.small])
        let other = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(empty, other) }
        let alone = try await BinaryRun.run([empty.path])
        #expect(alone.status == 1)
        #expect(alone.output.isEmpty)
        #expect(alone.error.hasPrefix("snap-poem: error: \(empty.path): no images in this folder"), "\(alone.error)")
        let both = try await BinaryRun.run([empty.path, other.path])
        #expect(both.status == 1)
        #expect(both.output.hasPrefix("==> \(other.path)/a.jpg <==\n"))
    }

    @Test("An empty shard of a folder that has images is exit 0 with a note")
    func emptyShard() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(input) }
        let run = try await BinaryRun.run([input.path, "--shard", "2/3"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.error == "snap-poem: note: shard 2/3 has no images (1 in all, fewer than 3 shards)\n")
    }
}
