import Foundation
import Testing

@Suite("Batches with --output-dir: the manifest, resuming, the summary")
struct ManifestResumeTests {
    static let keys: Set<String> = [
        "schemaVersion", "input", "path", "contentHash", "optionsHash", "status", "error", "failure", "output", "outputHash",
        "earlierOutputs", "meanConfidence", "hasText", "coverage", "warnings", "messages", "timings", "finishedAt", "pages",
        "failedPages",
    ]

    @Test("A manifest line per input with every key; a rerun reads nothing and says so; --retry-failed reads the failure again")
    func manifestAndRerun() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "sub/b.png": BatchFixtures.stanza, "c.png": ""])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let first = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2"])
        #expect(first.status == 1)
        #expect(first.error.hasSuffix("snap-poem: 3 images: 2 written, 0 skipped (done before), 1 failed, 0 cancelled\n"), "\(first.error)")
        let manifest = try BatchFixtures.manifest(output)
        #expect(Set(manifest.keys) == ["a.jpg", "sub/b.png", "c.png"])
        for entry in manifest.values { #expect(Set(entry.keys) == Self.keys) }
        let a = try #require(manifest["a.jpg"])
        #expect(a["status"] as? String == "ok")
        #expect(a["output"] as? String == "a.txt")
        #expect(a["path"] as? String == input.path + "/a.jpg")
        #expect((a["coverage"] as? [String: Any])?["complete"] as? Bool == true)
        #expect(a["contentHash"] as? String == "sha256:" + (try Self.sha256sum(BatchFixtures.small)))
        #expect((a["meanConfidence"] as? Int ?? 0) > 50)
        let text = try String(contentsOf: output.appendingPathComponent("a.txt"), encoding: .utf8)
        #expect(a["outputHash"] as? String == "sha256:" + (try Self.sha256sum(output.appendingPathComponent("a.txt").path)))
        #expect(manifest["sub/b.png"]?["output"] as? String == "sub/b.txt")
        let c = try #require(manifest["c.png"])
        #expect(c["status"] as? String == "failed")
        #expect(c["failure"] as? String == "input")
        #expect(c["error"] as? String == "\(input.path)/c.png: the file is empty (0 bytes), not an image")
        #expect(c["coverage"] is NSNull, "nothing was read, so nothing was checked")

        let written =
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("a.txt").path)[.modificationDate] as? Date
        let second = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2"])
        #expect(second.status == 1)
        #expect(
            second.error == "snap-poem: error: \(input.path)/c.png: the file is empty (0 bytes), not an image"
                + "; failed before, and not read again unless failed inputs are retried (--retry-failed)\n"
                + "snap-poem: 3 images: 0 written, 2 skipped (done before), 1 failed, 0 cancelled\n")
        let again = try BatchFixtures.manifest(output)
        #expect(again["a.jpg"]?["status"] as? String == "skipped")
        #expect(again["a.jpg"]?["outputHash"] as? String == a["outputHash"] as? String)
        #expect(try BatchFixtures.manifestLines(output).count == 3, "one line per input after a run")
        #expect(try String(contentsOf: output.appendingPathComponent("a.txt"), encoding: .utf8) == text)
        #expect(
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("a.txt").path)[.modificationDate] as? Date
                == written)

        _ = FileManager.default.createFile(atPath: input.appendingPathComponent("c.png").path, contents: Data("not an image".utf8))
        let retried = try await BinaryRun.run([input.path, "--output-dir", output.path, "--retry-failed"])
        #expect(retried.status == 1)
        #expect(retried.error.contains("c.png: not an image snap-poem can read (the data is plain text)"))
        #expect(retried.error.hasSuffix("snap-poem: 3 images: 0 written, 2 skipped (done before), 1 failed, 0 cancelled\n"))
    }

    @Test("A changed input or changed options are read again; snap-poem's own untouched outputs are replaced, a changed one is not")
    func changes() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let first = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(first.status == 0, "\(first.error)")
        try FileManager.default.removeItem(at: input.appendingPathComponent("a.jpg"))
        try FileManager.default.copyItem(atPath: BatchFixtures.stanza, toPath: input.appendingPathComponent("a.jpg").path)
        let changedInput = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(changedInput.status == 0, "\(changedInput.error)")
        #expect(changedInput.error.hasSuffix("snap-poem: 2 images: 1 written, 1 skipped (done before), 0 failed, 0 cancelled\n"))
        #expect(try String(contentsOf: output.appendingPathComponent("a.txt"), encoding: .utf8).contains("golden bowl"))

        try Data("my own notes\n".utf8).write(to: output.appendingPathComponent("b.txt"))
        let changedOptions = try await BinaryRun.run([input.path, "--output-dir", output.path, "-r", "Lenore=Alex"])
        #expect(changedOptions.status == 73)
        #expect(changedOptions.error.contains("b.txt: output not written (the file exists, and replacing it was not asked for)"))
        #expect(changedOptions.error.hasSuffix("snap-poem: 2 images: 1 written, 0 skipped (done before), 1 failed, 0 cancelled\n"))
        #expect(try String(contentsOf: output.appendingPathComponent("b.txt"), encoding: .utf8) == "my own notes\n")
        #expect(try String(contentsOf: output.appendingPathComponent("a.txt"), encoding: .utf8).contains("Alex"))
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["b.png"]?["failure"] as? String == "output")
        #expect(manifest["b.png"]?["contentHash"] is NSNull, "refused before the image was read")

        let forced = try await BinaryRun.run([input.path, "--output-dir", output.path, "-r", "Lenore=Alex", "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.error.hasSuffix("snap-poem: 2 images: 2 written, 0 skipped (done before), 0 failed, 0 cancelled\n"))
        #expect(try String(contentsOf: output.appendingPathComponent("b.txt"), encoding: .utf8).contains("Alex"))
    }

    @Test(
        "Options changed and changed back: every output a run wrote is its own to the reruns (--format, -r, --keep-extension), even after a refusal"
    )
    func optionsChangedBack() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let runs: [[String]] = [
            ["--format", "text"], ["--format", "json"], ["--format", "text"], ["-r", "text=poem"], [], ["--keep-extension"],
            ["--format", "json"], [],
        ]
        for options in runs {
            let run = try await BinaryRun.run([input.path, "--output-dir", output.path] + options)
            #expect(run.status == 0, "\(options): \(run.error)")
            #expect(run.error == "snap-poem: 1 image: 1 written, 0 skipped (done before), 0 failed, 0 cancelled\n", "\(options)")
        }
        #expect(try BatchFixtures.files(output) == ["a.jpg.txt", "a.json", "a.txt", "manifest.jsonl"])
        let entry = try #require(try BatchFixtures.manifest(output)["a.jpg"])
        #expect(entry["output"] as? String == "a.txt")
        let earlier = (entry["earlierOutputs"] as? [[String: Any]] ?? []).map { $0["output"] as? String ?? "?" }
        #expect(earlier == ["a.json", "a.jpg.txt"], "latest first; a.txt is the current output")
        for record in entry["earlierOutputs"] as? [[String: Any]] ?? [] {
            let path = output.appendingPathComponent(record["output"] as? String ?? "?").path
            #expect(record["outputHash"] as? String == "sha256:" + (try Self.sha256sum(path)))
        }

        // A refused run (a file in the way of another format) does not make the others strangers.
        try Data("my own notes\n".utf8).write(to: output.appendingPathComponent("a.md"))
        let refused = try await BinaryRun.run([input.path, "--output-dir", output.path, "--format", "markdown"])
        #expect(refused.status == 73, "\(refused.error)")
        let back = try await BinaryRun.run([input.path, "--output-dir", output.path, "--format", "json"])
        #expect(back.status == 0, "\(back.error)")
        #expect(try String(contentsOf: output.appendingPathComponent("a.md"), encoding: .utf8) == "my own notes\n")

        // An edited earlier output is no longer snap-poem's.
        try Data("edited\n".utf8).write(to: output.appendingPathComponent("a.txt"))
        let edited = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(edited.status == 73)
        #expect(edited.error.contains("a.txt: output not written (the file exists, and replacing it was not asked for)"), "\(edited.error)")
    }

    @Test("Lines of the manifest that cannot be read are left out with a warning that counts them, never silently")
    func unreadableManifestLines() async throws {
        let input = try BatchFixtures.folder(["a.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let first = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(first.status == 0, "\(first.error)")
        let manifest = output.appendingPathComponent("manifest.jsonl")
        var damaged = try Data(contentsOf: manifest)
        damaged.append(Data("not json at all\n{\"torn\":".utf8))
        try damaged.write(to: manifest)
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.error.contains(
                "snap-poem: warning: \(output.path)/manifest.jsonl: 2 lines that could not be read left out of the manifest"),
            "\(run.error)")
        #expect(try BatchFixtures.manifestLines(output).count == 1)
        let again = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(!again.error.contains("could not be read"), "\(again.error)")
    }

    @Test(
        "A manifest.jsonl that is not snap-poem's or is a newer snap-poem's is refused (73) and left as it was; one given as an input is left out"
    )
    func foreignOrInputManifest() async throws {
        let input = try BatchFixtures.folder(["a.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let manifest = output.appendingPathComponent("manifest.jsonl")
        let foreign = Data("my own list\nof things\n".utf8)
        try foreign.write(to: manifest)
        let refused = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(refused.status == 73, "\(refused.error)")
        #expect(refused.error.contains("manifest.jsonl: output not written (it holds no line of a snap-poem manifest"), "\(refused.error)")
        #expect(try Data(contentsOf: manifest) == foreign)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a.txt").path))

        // Someone's one line without a final newline is not a torn line of snap-poem's.
        let oneLine = Data("{\"id\":1,\"title\":\"mine\"}".utf8)
        try oneLine.write(to: manifest)
        let single = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(single.status == 73, "\(single.error)")
        #expect(try Data(contentsOf: manifest) == oneLine)

        // A later snap-poem's manifest (a newer schema) is not garbage: refused with its version, kept.
        let newer = Data("{\"schemaVersion\":2,\"input\":\"a.png\",\"reading\":{}}\n".utf8)
        try newer.write(to: manifest)
        let later = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(later.status == 73, "\(later.error)")
        #expect(
            later.error.contains("1 of its lines was written by a newer snap-poem (manifest schema 2; this one reads 1)"), "\(later.error)")
        #expect(try Data(contentsOf: manifest) == newer)

        // What a run killed during its first append leaves (one torn line) is still its own.
        try Data("{\"contentHash\":\"3f2a".utf8).write(to: manifest)
        let torn = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(torn.status == 0, "\(torn.error)")
        #expect(try BatchFixtures.manifestLines(output).count == 1)

        // The manifest as an input, named (`photos/* --output-dir photos`) or through a link in
        // the folder read: left out of the inputs with a warning, never read as an image, and
        // the run goes on (it used to be refused as a whole, every time).
        let named = try await BinaryRun.run([manifest.path, input.path, "--output-dir", output.path])
        #expect(named.status == 0, "\(named.error)")
        #expect(named.error.contains("\(manifest.path): skipped: it is this batch's manifest, not an image"), "\(named.error)")
        #expect(named.error.contains("1 image: 0 written, 1 skipped"), "\(named.error)")
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("m.png").path, withDestinationPath: manifest.path)
        let linked = try await BinaryRun.run([input.path, "--output-dir", output.path, "--follow-links"])
        #expect(linked.status == 0, "\(linked.error)")
        #expect(linked.error.contains("m.png: skipped: it is this batch's manifest, not an image"), "\(linked.error)")
        #expect(try BatchFixtures.manifestLines(output).count == 1)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("m.txt").path))
    }

    @Test("Refused before any image is read: an output name too long for a file name, someone's file over the largest output")
    func outputsRefusedBeforeReading() async throws {
        let long = String(repeating: "L", count: 251) + ".png"
        let input = try BatchFixtures.folder([long: BatchFixtures.stanza, "b.png": BatchFixtures.stanza, "c.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        // A sparse file of 5 GiB where c.json goes: no disk used, and over any cap a read might have.
        let inTheWay = output.appendingPathComponent("c.json").path
        #expect(FileManager.default.createFile(atPath: inTheWay, contents: Data()))
        #expect(truncate(inTheWay, 5 << 30) == 0)
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "--format", "json"])
        #expect(run.status == 73, "\(run.error)")
        #expect(
            run.error.contains("\(String(repeating: "L", count: 251)).json: output not written (file name too long: 256 bytes"),
            "\(run.error)")
        #expect(run.error.contains("c.json: output not written (the file exists"), "\(run.error)")
        #expect(run.error.contains("3 images: 1 written, 0 skipped (done before), 2 failed"), "\(run.error)")
        let entries = try BatchFixtures.manifest(output)
        #expect(entries["b.png"]?["status"] as? String == "ok")
        for name in [long, "c.png"] {
            let entry = try #require(entries[name], "\(entries.keys)")
            #expect(entry["status"] as? String == "failed" && entry["failure"] as? String == "output")
            // Never read: no time was spent on it.
            #expect(entry["timings"] == nil || entry["timings"] is NSNull, "\(entry)")
        }
    }

    @Test("Two spellings of one name (é composed, and e with a combining accent): two inputs, two outputs, two lines, both skipped again")
    func composedAndDecomposedNames() async throws {
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        #expect(composed == decomposed)  // to Swift; to the file system they are two names
        let input = try BatchFixtures.folder([composed: BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        try FileManager.default.copyItem(atPath: BatchFixtures.small, toPath: input.path + "/" + decomposed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: input.path).count == 2)
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("2 images: 2 written"), "\(run.error)")
        let written = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".txt") }
        #expect(Set(written.map { Array($0.utf8) }) == [Array("caf\u{E9}.txt".utf8), Array("cafe\u{301}.txt".utf8)])
        #expect(try BatchFixtures.manifestLines(output).count == 2)
        let again = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(again.status == 0, "\(again.error)")
        #expect(again.error.contains("2 images: 0 written, 2 skipped"), "\(again.error)")
    }

    @Test("A name that starts with a combining accent: its '/' is still a '/', inside the output folder and out of it")
    func combiningMarkAfterSlash() async throws {
        // "/" then U+0301 is one Character to Swift; to the kernel the "/" is a separator.
        let accented = "\u{301}a.png"
        let work = try BatchFixtures.folder(["in/sub/" + accented: BatchFixtures.stanza, accented: BatchFixtures.stanza])
        defer { BatchFixtures.remove(work) }
        // In a folder read: the output goes to out/sub/́a.txt (it used to fail, every run).
        let inside = try await BinaryRun.run([work.path + "/in", "--output-dir", work.path + "/out"])
        #expect(inside.status == 0, "\(inside.error)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/out/sub/\u{301}a.txt"), "\(inside.error)")
        // Named as "../́a.png" from a folder below: the output is named after the file alone,
        // inside the output folder (it used to be written beside the input, through the "..").
        try FileManager.default.createDirectory(atPath: work.path + "/below", withIntermediateDirectories: false)
        let script = "cd \"$1/below\" && exec \"$2\" \"../$3\" --output-dir out"
        let named = try await BinaryRun.run(
            ["-c", script, "sh", work.path, BinaryRun.executable.path, accented], program: URL(fileURLWithPath: "/bin/sh"))
        #expect(named.status == 0, "\(named.error)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/below/out/\u{301}a.txt"), "\(named.error)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/\u{301}a.txt"))
    }

    @Test("Ctrl-C: exit 130, an honest count, a valid manifest, nothing half-written; the rerun does only the rest")
    func interruptAndResume() async throws {
        var files: [String: String] = [:]
        for index in 1...24 { files["p\(index).jpg"] = BatchFixtures.small }
        let input = try BatchFixtures.folder(files)
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        // A temporary file as a killed run leaves it, and one that is not this run's.
        _ = FileManager.default.createFile(atPath: output.appendingPathComponent(".p8.txt.snap-poem-Ab12Cd").path, contents: Data("x".utf8))
        _ = FileManager.default.createFile(atPath: output.appendingPathComponent(".other.txt.snap-poem-Zz99Yy").path, contents: Data())
        let manifestPath = output.appendingPathComponent("manifest.jsonl").path
        let interrupted = try await InterruptedRun.run([input.path, "--output-dir", output.path, "-j", "2"]) {
            ((try? String(contentsOfFile: manifestPath, encoding: .utf8)) ?? "").split(separator: "\n").count >= 1
        }
        #expect(interrupted.status == 130, "\(interrupted.error)")
        let summary = try #require(interrupted.error.split(separator: "\n").last)
        let counts = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        // "snap-poem: 24 images: W written, 0 skipped (done before), 0 failed, C cancelled"
        #expect(counts.count == 5 && counts[0] == 24 && counts[1] + counts[2] + counts[3] + counts[4] == 24, "\(summary)")
        #expect(counts.count == 5 && counts[4] > 0, "\(summary)")
        let written = counts.count == 5 ? counts[1] : 0
        let lines = try BatchFixtures.manifestLines(output)
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(entries.filter { $0["status"] as? String == "ok" }.count == written)
        for entry in entries where entry["status"] as? String == "ok" {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(entry["output"] as? String ?? "?").path))
        }
        let leftovers = try BatchFixtures.files(output).filter { $0.hasPrefix(".") }
        #expect(leftovers == [".other.txt.snap-poem-Zz99Yy"], "only another run's temporary file may remain")

        let resumed = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2"])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(
            resumed.error.hasSuffix(
                "snap-poem: 24 images: \(24 - written) written, \(written) skipped (done before), 0 failed, 0 cancelled\n"))
        #expect(try BatchFixtures.files(output).filter { $0.hasSuffix(".txt") }.count == 24)
    }

    /// `sha256sum`'s digest of a file, the independent check of `ContentHash`.
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
