import Foundation
import Testing

@Suite("Batches on the command line: folders, --jobs, --output-dir, --shard")
struct BatchCommandTests {
    /// A folder with two readable images in a tree and one empty file.
    static func makeTree() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("formats/stanza-rgb8.png"), toPath: folder.appendingPathComponent("a.png").path)
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("formats/stanza-gray.jpg"), toPath: sub.appendingPathComponent("b.jpg").path)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("c.png").path, contents: Data())
        return folder
    }

    @Test("A folder is read in sorted order with one or two jobs alike; the bad file is reported and the rest delivered")
    func folder() async throws {
        let folder = try Self.makeTree()
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try await BinaryRun.run([folder.path, "--jobs", "1", "-r", "Lenore=Alex"])
        let two = try await BinaryRun.run([folder.path, "--jobs", "2", "-r", "Lenore=Alex"])
        #expect(one.status == 1)
        #expect(two.status == 1)
        #expect(one.output == two.output)
        #expect(one.error == two.error)
        let headers = one.output.split(separator: "\n").filter { $0.hasPrefix("==> ") }
        #expect(headers == ["==> \(folder.path)/a.png <==", "==> \(folder.path)/sub/b.jpg <=="])
        #expect(one.output.components(separatedBy: "Alex!").count - 1 == 2)
        #expect(one.error.contains("snap-poem: error: \(folder.path)/c.png: the file is empty"))
        #expect(one.error.hasSuffix("snap-poem: 3 images: 2 written, 0 skipped (done before), 1 failed, 0 cancelled\n"))
    }

    @Test("--output-dir writes one file per image, mirroring the tree, and keeps existing files without --force")
    func outputDirectory() async throws {
        let folder = try Self.makeTree()
        let results = try Fixtures.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: results)
        }
        let run = try await BinaryRun.run([folder.path, "--output-dir", results.path, "--format", "json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        let written = try FileManager.default.subpathsOfDirectory(atPath: results.path).sorted()
        #expect(written == ["a.json", "manifest.jsonl", "sub", "sub/b.json"])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: results.appendingPathComponent("a.json")))
        #expect(document is [String: Any])
        let again = try await BinaryRun.run([folder.appendingPathComponent("a.png").path, "--output-dir", results.path, "--format", "json"])
        #expect(again.status == 73)
    }

    @Test("Two images that would land on the same --output-dir file are refused before reading")
    func clashingNames() async throws {
        let folder = try Fixtures.temporaryFolder()
        let results = try Fixtures.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: results)
        }
        for name in ["a.png", "a.jpg"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.sample("formats/stanza-rgb8.png"), toPath: folder.appendingPathComponent(name).path)
        }
        let run = try await BinaryRun.run([folder.path, "--output-dir", results.path])
        #expect(run.status == 64)
        #expect(run.error.contains("would both be written to"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: results.path).isEmpty)
    }

    @Test("A --region outside one image of a batch fails that image, named, in the numbers given: an input failure, exit 1")
    func regionOutsideOneImage() async throws {
        // 803×295 and 1004×428: the region starts right of the first and on the second.
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let message = "the region 900,100,104,300 lies outside the 803×295 image; nothing was read"
        let run = try await BinaryRun.run([input.path, "--region", "900,100,104,300", "--output-dir", output.path])
        #expect(run.status == 1, "\(run.error)")
        #expect(run.error.hasPrefix("snap-poem: error: \(input.path)/a.jpg: \(message)\n"), "\(run.error)")
        #expect(run.error.hasSuffix("snap-poem: 2 images: 1 written, 0 skipped (done before), 1 failed, 0 cancelled\n"))
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["a.jpg"]?["failure"] as? String == "input")
        #expect(manifest["a.jpg"]?["error"] as? String == "\(input.path)/a.jpg: \(message)")
        #expect(manifest["b.png"]?["status"] as? String == "ok")

        let single = try await BinaryRun.run([input.path + "/a.jpg", "--region", "900,100,104,300"])
        #expect(single.status == 1)
        #expect(single.error == "snap-poem: error: \(input.path)/a.jpg: \(message)\n")
        #expect(single.output.isEmpty)
    }

    @Test(
        "Batch options out of range are usage errors that name what is taken: --per-image-limit both ends, --worker-memory the least (a worker needs about 450 MB to read a photo)",
        arguments: [
            (
                "--per-image-limit", ["0", "-1", "1e300", "604801", "soon"],
                "<SECONDS>': expected a number of seconds greater than 0, at most 604800 (a week)."
            ),
            (
                "--worker-memory", ["256", "511"],
                "<MB|none>': expected megabytes from 512 (a worker needs about 450 MB to read a phone photo), or none."
            ),
        ])
    func batchOptionRanges(option: String, values: [String], expected: String) async {
        for value in values {
            let run = await CapturedRun.run([Fixtures.sample("Lenore.png"), "a.png", option, value])
            #expect(run.status == 64, "\(option) \(value)")
            #expect(
                run.error.hasPrefix("snap-poem: error: Invalid value '\(value)' for '\(option) \(expected)\n"), "\(run.error)")
        }
    }

    @Test("--worker-memory 512, the least taken, reads Lenore.png and a 12-megapixel phone photo in one worker")
    func workerMemoryLeast() async throws {
        let input = try BatchFixtures.folder([
            "Lenore.png": Fixtures.sample("Lenore.png"), "photo-phone-size.jpg": Fixtures.sample("photo-phone-size.jpg"),
        ])
        defer { BatchFixtures.remove(input) }
        let run = try await BinaryRun.run([input.path, "-j", "1", "--worker-memory", "512"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.hasSuffix("snap-poem: 2 images: 2 written, 0 skipped (done before), 0 failed, 0 cancelled\n"), "\(run.error)")
    }

    @Test(
        "An image too large for --worker-memory fails saying that the limit, named, is too small; the batch reads on",
        .enabled(if: Spawned.memoryLimitsUnavailable == nil, "not under AddressSanitizer"))
    func workerMemoryNamed() async throws {
        let input = try BatchFixtures.folder(["b.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(input) }
        // A white 12000×12000 page (144 megapixels, under the pixel limit) in 18 MB of PBM.
        var page = Data("P4\n12000 12000\n".utf8)
        page.append(Data(count: 12000 / 8 * 12000))
        try page.write(to: input.appendingPathComponent("a.pbm"))
        let run = try await BinaryRun.run([input.path, "-j", "1", "--worker-memory", "512"])
        #expect(run.status == 1)
        #expect(
            run.error.contains(
                "snap-poem: error: \(input.path)/a.pbm: out of memory while preparing the 12000×12000 image (it needs about "),
            "\(run.error)")
        #expect(
            run.error.contains(
                " MiB more); the worker memory limit of 512 MB is too small for this image: raise it, or scale the image down (--worker-memory)\n"
            ), "\(run.error)")
        #expect(run.error.hasSuffix("snap-poem: 2 images: 1 written, 0 skipped (done before), 1 failed, 0 cancelled\n"), "\(run.error)")
    }

    @Test("Shards 1/2 and 2/2 together read every image exactly once")
    func shards() async throws {
        let folder = try Self.makeTree()
        defer { try? FileManager.default.removeItem(at: folder) }
        var headers: [Substring] = []
        var errors = ""
        for shard in ["1/2", "2/2"] {
            let run = try await BinaryRun.run([folder.path, "--shard", shard])
            headers += run.output.split(separator: "\n").filter { $0.hasPrefix("==> ") }
            if !run.output.contains("==> ") && !run.output.isEmpty { headers.append("single") }
            errors += run.error
        }
        let failures = errors.split(separator: "\n").filter { $0.contains("c.png") }
        #expect(failures.count == 1)
        #expect(headers.count + failures.count == 3, "\(headers) \(failures)")
    }

    @Test(
        "Several images cannot go to one file or one-document format",
        arguments: [["--output", "poems.txt"], ["--format", "html"]])
    func severalToOne(extra: [String]) async throws {
        let folder = try Self.makeTree()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await BinaryRun.run([folder.path] + extra)
        #expect(run.status == 64)
        #expect(run.error.contains("--output-dir"))
    }
}
