import Foundation
import SnapPoemTestSupport
import Testing

/// The batch classes of the issue "bounded by construction", each reproduced against the
/// real batch (the built executable, its real workers) with its pass criterion: a file,
/// a folder or a worker that someone else controls cannot make a batch write where it
/// should not, read without bound, lose an image, or print a line it did not mean.
@Suite("Batches bounded by construction: links, inputs, standard input, framing, manifests, escaping, protocol, full disks")
struct BatchBoundsTests {
    static let small = BatchFixtures.small

    @Test("OUT/manifest.jsonl as a symbolic link: refused before any image is read, its target untouched")
    func manifestLink() async throws {
        let input = try BatchFixtures.folder(["a.jpg": Self.small])
        let output = try Fixtures.temporaryFolder()
        let elsewhere = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output, elsewhere) }
        let victim = elsewhere.appendingPathComponent("precious.txt")
        try Data("not a manifest\n".utf8).write(to: victim)
        for name in ["manifest.jsonl", "manifest.shard-1-of-2.jsonl"] {
            try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent(name).path, withDestinationPath: victim.path)
        }
        let whole = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(whole.status == 73, "\(whole.error)")
        #expect(whole.error.contains("manifest.jsonl: output not written (it is a symbolic link;"), "\(whole.error)")
        let shard = try await BinaryRun.run([input.path, "--output-dir", output.path, "--shard", "1/2"])
        #expect(shard.status == 73, "\(shard.error)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "not a manifest\n")
        #expect(try BatchFixtures.files(output) == ["manifest.jsonl", "manifest.shard-1-of-2.jsonl"], "no output was written")
    }

    @Test("With --force, a link or a hard link in OUT to an input photo is refused; the photo is never replaced")
    func outputLinkToInput() async throws {
        let input = try BatchFixtures.folder(["a.png": BatchFixtures.stanza, "b.png": BatchFixtures.stanza, "c.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let photo = try Data(contentsOf: input.appendingPathComponent("b.png"))
        try FileManager.default.createSymbolicLink(
            atPath: output.appendingPathComponent("a.json").path, withDestinationPath: input.appendingPathComponent("b.png").path)
        try FileManager.default.linkItem(
            atPath: input.appendingPathComponent("b.png").path, toPath: output.appendingPathComponent("c.json").path)
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "--format", "json", "--force"])
        #expect(run.status == 73, "\(run.error)")
        #expect(run.error.contains("a.json: output not written (it is a symbolic link;"), "\(run.error)")
        #expect(run.error.contains("c.json: output not written (it is an input image; snap-poem never overwrites its inputs)"))
        #expect(run.error.hasSuffix("snap-poem: 3 images: 1 written, 0 skipped (done before), 2 failed, 0 cancelled\n"))
        #expect(try Data(contentsOf: input.appendingPathComponent("b.png")) == photo)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output.appendingPathComponent("a.json").path).hasSuffix("b.png"))
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["a.png"]?["failure"] as? String == "output")
        #expect(manifest["b.png"]?["status"] as? String == "ok")
    }

    @Test("An input named directly whose output would be itself is refused before it is read")
    func outputIsTheInput() async throws {
        let folder = try BatchFixtures.folder(["poem.txt": Self.small])
        defer { BatchFixtures.remove(folder) }
        let image = folder.appendingPathComponent("poem.txt").path
        let photo = try Data(contentsOf: URL(fileURLWithPath: image))
        let run = try await BinaryRun.run([image, "--output-dir", folder.path, "--force"])
        #expect(run.status == 73, "\(run.error)")
        #expect(run.error.contains("poem.txt: output not written (it is an input image; snap-poem never overwrites its inputs)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == photo)
    }

    @Test("Standard input that never ends, in a batch: the 512 MiB bound of a single image, then one failure")
    func endlessStandardInputInBatch() async throws {
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(output) }
        let run = try await Spawned.run(["-", "--output-dir", output.path], input: .endless, timeout: .seconds(180))
        #expect(!run.timedOut && run.status == 1, "\(run.error)")
        #expect(
            run.errorLines == [
                "snap-poem: error: <stdin>: the input holds more, over the limit of 512 MiB; nothing was decoded",
                "snap-poem: 1 image: 0 written, 0 skipped (done before), 1 failed, 0 cancelled",
            ])
        #expect(run.peakMegabytes < Spawned.memoryBound(900), "peak \(run.peakMegabytes) MiB")
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["-"]?["failure"] as? String == "input")
    }

    @Test("100 MB on standard input reaches its worker and is judged by its bytes, not stopped by the per-image limit")
    func largeStandardInputFramed() async throws {
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(output) }
        // Text, so that the worker's answer is quick once the request has arrived: only the
        // framing of a 133 MB line (base64) stands between them.
        let bytes = Data(repeating: 0x61, count: 100 << 20)
        // The per-image limit is generous for a loaded machine (a debug build spends about 15 s
        // of CPU on the request); framing that rescanned its buffer for each piece would take
        // hours.
        let run = try await Spawned.run(
            ["-", "--output-dir", output.path, "--per-image-limit", "400"], input: .bytes(bytes), timeout: .seconds(600))
        #expect(!run.timedOut, "\(run.error)")
        #expect(run.status == 1)
        #expect(
            run.errorLines.first == "snap-poem: error: <stdin>: not an image snap-poem can read (the data is plain text)", "\(run.error)")
    }

    @Test("A 1.5 GB garbage manifest is refused from its size, a large one streamed; memory stays small")
    func garbageManifests() async throws {
        let input = try BatchFixtures.folder(["a.jpg": Self.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let first = try await BinaryRun.run([input.path, "--output-dir", output.path, "--shard", "1/2"])
        #expect(first.status == 0, "\(first.error)")
        let huge = output.appendingPathComponent("manifest.shard-2-of-2.jsonl").path
        #expect(FileManager.default.createFile(atPath: huge, contents: Data()))
        #expect(truncate(huge, off_t(3) << 29) == 0)
        let refused = try await Spawned.run([input.path, "--output-dir", output.path, "--check-manifests"], timeout: .seconds(120))
        #expect(refused.status == 1)
        #expect(
            refused.errorLines == [
                "snap-poem: error: \(huge): cannot read the file (the manifest is 1.5 GiB, over the limit of 1 GiB)"
            ])
        #expect(refused.peakMegabytes < Spawned.memoryBound(200), "peak \(refused.peakMegabytes) MiB")
        // Under the bound, read a line at a time: one line of zeros over the line bound,
        // skipped as it streams by.
        #expect(truncate(huge, off_t(300) << 20) == 0)
        let streamed = try await Spawned.run([input.path, "--output-dir", output.path, "--check-manifests"], timeout: .seconds(120))
        #expect(streamed.status == 0, "\(streamed.error)")
        #expect(
            String(decoding: streamed.output, as: UTF8.self)
                == "snap-poem: 1 image, 2 manifests: 1 covered once, 0 missing, 0 duplicated, 0 failed; 1 unreadable manifest line\n")
        #expect(streamed.peakMegabytes < Spawned.memoryBound(200), "peak \(streamed.peakMegabytes) MiB")
    }

    @Test("File names and manifest strings with escapes and line breaks are escaped everywhere; no summary can be forged")
    func escapedEverywhere() async throws {
        let forged = "x\u{1B}[2J\nsnap-poem: 9 images: 9 written, 0 skipped (done before), 0 failed, 0 cancelled\n.png"
        let input = try BatchFixtures.folder([forged: "", "b.jpg": Self.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let first = try await BinaryRun.run([input.path, "--output-dir", output.path, "-v"])
        #expect(first.status == 1)
        let lines = first.error.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("snap-poem: ") }, "\(first.error)")
        #expect(!first.error.contains("\u{1B}"))
        #expect(lines.filter { $0.contains("images:") && !$0.contains("\\n") }.count == 1, "one summary: \(first.error)")
        #expect(first.error.contains("x\\u{1B}[2J\\nsnap-poem: 9 images"))

        // A manifest line whose error a stranger wrote: shown escaped on the rerun and by
        // --check-manifests.
        let manifest = output.appendingPathComponent("manifest.jsonl")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let poisoned = text.split(separator: "\n").map { line -> String in
            guard line.contains("\"status\":\"failed\"") else { return String(line) }
            var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
            object["error"] = "bad\u{1B}[31m\nsnap-poem: 2 images: 2 written, 0 skipped (done before), 0 failed, 0 cancelled"
            return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        }
        try Data((poisoned.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let rerun = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(rerun.status == 1)
        #expect(!rerun.error.contains("\u{1B}"))
        #expect(rerun.error.split(separator: "\n").count == 2, "the failure and the summary: \(rerun.error)")
        let check = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(!check.output.contains("\u{1B}"))
        #expect(check.output.split(separator: "\n").count == 2, "\(check.output)")
        #expect(check.output.contains("bad\\u{1B}[31m\\nsnap-poem: 2 images"))
    }

    @Test(
        "A worker that says 'ready' while it reads an image is stopped, and the image fails visibly",
        .disabled(if: TestedExecutable.isShipped, "the fault is injected through a hook that only debug builds have"))
    func readyWhileBusy() async throws {
        let input = try BatchFixtures.folder(["a.jpg": Self.small, "b.jpg": Self.small, "c.jpg": Self.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run(
            [input.path, "--output-dir", output.path, "-j", "1"], environment: WorkerIsolationTests.faults("lie:b.jpg"))
        #expect(run.status == 1, "\(run.error)")
        #expect(
            run.error.contains(
                "snap-poem: error: \(input.path)/b.jpg: the worker broke the batch protocol, sending 'ready' while it was reading the image\n"
            ),
            "\(run.error)")
        #expect(run.error.hasSuffix("snap-poem: 3 images: 2 written, 0 skipped (done before), 1 failed, 0 cancelled\n"))
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["b.jpg"]?["status"] as? String == "failed")
        #expect(manifest["c.jpg"]?["status"] as? String == "ok", "a fresh worker reads on")
    }

    @Test(
        "A manifest line that cannot be appended fails its image and leaves no output behind; the rerun resumes cleanly",
        TinyFileSystem.required)
    func fullDiskManifest() async throws {
        let input = try BatchFixtures.folder(["a.jpg": Self.small])
        defer { BatchFixtures.remove(input) }
        // Room for one page: the output takes it, the manifest's first line finds none.
        let disk = try TinyFileSystem(freeBytes: 4096)
        let out = disk.path("out")
        let full = try await BinaryRun.run([input.path, "--output-dir", out])
        #expect(full.status == 73, "\(full.error)")
        #expect(full.error.contains("manifest.jsonl: output not written (no space left on device)"), "\(full.error)")
        #expect(full.error.hasSuffix("snap-poem: 1 image: 0 written, 0 skipped (done before), 1 failed, 0 cancelled\n"))
        #expect(!FileManager.default.fileExists(atPath: out + "/a.txt"), "no output that no line accounts for")
        disk.makeRoom()
        let rerun = try await BinaryRun.run([input.path, "--output-dir", out])
        #expect(rerun.status == 0, "\(rerun.error)")
        #expect(rerun.error.hasSuffix("snap-poem: 1 image: 1 written, 0 skipped (done before), 0 failed, 0 cancelled\n"))
    }
}

@Suite("One path per image: a single image and a batch of one give the same outcome")
struct OnePathTests {
    @Test(
        "In this process and in a worker, every format's document is the same bytes (JSON's timings aside)",
        arguments: ["text", "markdown", "html", "json", "hocr", "tsv", "alto"])
    func sameDocument(format: String) async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let image = input.appendingPathComponent("a.jpg").path
        let single = try await BinaryRun.run([image, "--format", format, "-r", "orientation=Alex"])
        let batch = try await BinaryRun.run([image, "--format", format, "-r", "orientation=Alex", "--output-dir", output.path])
        #expect(single.status == 0 && batch.status == 0, "\(single.error)\(batch.error)")
        let written = try String(contentsOf: output.appendingPathComponent("a.\(ExportFormatExtension.of(format))"), encoding: .utf8)
        #expect(Self.withoutTimings(written) == Self.withoutTimings(single.output))
        #expect(!single.output.isEmpty)
    }

    /// The document with its times blanked (the `timings` object, the line reading's
    /// `layoutMilliseconds` and each reading pass's `milliseconds`): the parts that differ
    /// run to run.
    static func withoutTimings(_ text: String) -> String {
        text.replacing(#/"timings" : \{[^}]*\}/#, with: "\"timings\" : {}")
            .replacing(#/"layoutMilliseconds" : [0-9]+/#, with: "\"layoutMilliseconds\" : 0")
            .replacing(#/"milliseconds" : [0-9]+/#, with: "\"milliseconds\" : 0")
    }
}

/// The extension `--output-dir` gives each format's files.
enum ExportFormatExtension {
    static func of(_ format: String) -> String {
        ["text": "txt", "markdown": "md", "alto": "xml"][format] ?? format
    }
}

@Suite("Test hooks exist only in debug builds")
struct TestHookTests {
    @Test("WorkerFault is compiled only under SNAP_POEM_TEST_HOOKS, which Package.swift defines for debug builds alone")
    func hooksAreDebugOnly() throws {
        let package = try String(contentsOf: Fixtures.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains(#".define("SNAP_POEM_TEST_HOOKS", .when(configuration: .debug))"#))
        #expect(package.components(separatedBy: "SNAP_POEM_TEST_HOOKS").count == 3, "defined once, and named once in its comment")
        let sources = Fixtures.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            var guarded = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("#if SNAP_POEM_TEST_HOOKS") { guarded += 1 }
                if code.hasPrefix("#endif"), guarded > 0 { guarded -= 1 }
                if code.hasPrefix("//") || code.hasPrefix("///") { continue }
                if code.contains("WorkerFault") || code.contains("SNAP_POEM_TEST_ONLY") {
                    #expect(guarded > 0, "\(file): '\(code)' outside #if SNAP_POEM_TEST_HOOKS")
                }
            }
        }
    }
}
