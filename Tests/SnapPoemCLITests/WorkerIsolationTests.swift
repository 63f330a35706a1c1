import Foundation
import SnapPoemTestSupport
import Testing

@Suite("Batches in worker processes: one bad image costs only itself")
struct WorkerIsolationTests {
    /// The environment with the test-only fault switch set.
    static func faults(_ value: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SNAP_POEM_TEST_ONLY_WORKER_FAULTS"] = value
        return environment
    }

    @Test(
        "An injected trap, abort and hang each cost exactly one image, with the reason in the manifest; the rest is read",
        .disabled(if: TestedExecutable.isShipped, "faults are injected through hooks that only debug builds have"))
    func crashesAndHang() async throws {
        let input = try BatchFixtures.folder([
            "1-good.jpg": BatchFixtures.small, "2-trap.jpg": BatchFixtures.small, "3-hang.jpg": BatchFixtures.small,
            "4-abort.jpg": BatchFixtures.small, "5-good.jpg": BatchFixtures.small,
        ])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        // The limit ends the hang; it must also leave the good images time enough when the
        // suite runs beside other tests on two cores (it was 15 s, which a loaded run passed).
        let limit = 60 * TestSanitizer.slowdown
        let run = try await BinaryRun.run(
            [input.path, "--output-dir", output.path, "-j", "2", "--per-image-limit", "\(limit)"],
            environment: Self.faults("trap:2-trap.jpg,hang:3-hang.jpg,abort:4-abort.jpg"))
        #expect(run.status == 1)
        #expect(run.error.hasSuffix("snap-poem: 5 images: 2 written, 0 skipped (done before), 3 failed, 0 cancelled\n"), "\(run.error)")
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["1-good.jpg"]?["status"] as? String == "ok")
        #expect(manifest["5-good.jpg"]?["status"] as? String == "ok")
        let trap = try #require(manifest["2-trap.jpg"])
        #expect(trap["status"] as? String == "failed")
        let trapError = trap["error"] as? String ?? ""
        #expect(
            trapError.hasPrefix("\(input.path)/2-trap.jpg: worker crashed: signal 4 (SIGILL")
                || trapError.hasPrefix("\(input.path)/2-trap.jpg: worker crashed: signal 5 (SIGTRAP"), "\(trapError)")
        #expect((trap["messages"] as? [String] ?? []).contains { $0.contains("Fatal error: injected trap") })
        #expect(manifest["4-abort.jpg"]?["error"] as? String == "\(input.path)/4-abort.jpg: worker crashed: signal 6 (SIGABRT, aborted)")
        #expect(manifest["3-hang.jpg"]?["error"] as? String == "\(input.path)/3-hang.jpg: over the per-image limit of \(limit) s")
        #expect(manifest["3-hang.jpg"]?["failure"] as? String == "input")
        for line in run.error.split(separator: "\n") where line.hasPrefix("snap-poem: error: ") {
            #expect(line.contains("2-trap.jpg") || line.contains("3-hang.jpg") || line.contains("4-abort.jpg"), "\(line)")
        }
        #expect(try BatchFixtures.files(output) == ["1-good.txt", "5-good.txt", "manifest.jsonl"])
    }

    @Test(
        "Runaway memory in a worker hits its memory limit and costs one image, not the machine",
        // Under AddressSanitizer the supervisor sets no memory limit (the shadow memory would
        // not fit), so the runaway would only end at the per-image limit.
        .enabled(if: Spawned.memoryLimitsUnavailable == nil, "not under AddressSanitizer"),
        .disabled(if: TestedExecutable.isShipped, "faults are injected through hooks that only debug builds have"))
    func runawayMemory() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run(
            [input.path, "--output-dir", output.path, "-j", "1", "--worker-memory", "1024"], environment: Self.faults("memory:a.jpg"))
        #expect(run.status == 1)
        let manifest = try BatchFixtures.manifest(output)
        #expect(
            manifest["a.jpg"]?["error"] as? String
                == "\(input.path)/a.jpg: worker crashed: signal 6 (SIGABRT, aborted), after an allocation failed under the worker memory limit of 1024 MB; raising it may help"
        )
        let messages = manifest["a.jpg"]?["messages"] as? [String] ?? []
        #expect(messages.contains { $0.hasPrefix("injected runaway memory: allocation failed after") }, "\(messages)")
        #expect(manifest["b.jpg"]?["status"] as? String == "ok", "the next worker reads on")
    }

    @Test("A real progressive-JPEG bomb (thousands of scans) is refused from its structure; no decoder ever runs on it")
    func jpegBomb() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        // 6000 scans decoded for over a minute on this machine, held back only by the
        // per-image limit (and not at all in the service); they are now counted first.
        try JPEGBomb.make(scans: 6000).write(to: input.appendingPathComponent("bomb.jpg"))
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2", "--per-image-limit", "10"])
        #expect(run.status == 1)
        let manifest = try BatchFixtures.manifest(output)
        let refusal =
            "\(input.path)/bomb.jpg: not an image snap-poem can read (a JPEG of more than 500 scans, which would hold its decoder for minutes whatever its size; save it again as an ordinary JPEG or PNG)"
        #expect(manifest["bomb.jpg"]?["error"] as? String == refusal)
        #expect(manifest["a.jpg"]?["status"] as? String == "ok")
        #expect(run.error.contains("snap-poem: error: \(refusal)\n"), "\(run.error)")
        // libjpeg never saw it: none of its complaints about the repeated scans.
        let messages = manifest["bomb.jpg"]?["messages"] as? [String] ?? []
        #expect(messages.isEmpty, "\(messages)")
        #expect(!run.error.contains("the JPEG decoder said"), "\(run.error)")
    }

    @Test(
        "The codecs' own messages are tied to the file they belong to, on standard error and in the manifest, in a single image's words"
    )
    func codecMessages() async throws {
        let input = try BatchFixtures.folder([
            "a.jpg": Fixtures.sample("formats/truncated.jpg"), "b.png": Fixtures.sample("formats/truncated.png"),
            "c.jpg": BatchFixtures.small,
        ])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "2"])
        #expect(run.status == 1)
        let premature = "snap-poem: warning: \(input.path)/a.jpg: the JPEG decoder said: Premature end of JPEG file\n"
        #expect(run.error.contains(premature), "\(run.error)")
        #expect(run.error.contains("snap-poem: warning: \(input.path)/b.png: the PNG decoder said: "), "\(run.error)")
        #expect(!run.error.contains("libpng error"), "libpng's own prefix is dropped: \(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("snap-poem: ") }, "no line without its file: \(run.error)")
        let manifest = try BatchFixtures.manifest(output)
        #expect(manifest["a.jpg"]?["messages"] as? [String] == ["the JPEG decoder said: Premature end of JPEG file"])
        #expect(manifest["c.jpg"]?["messages"] as? [String] == [])
    }

    @Test("Workers that cannot start their engine stop the batch with the reason and exit 69, before any image")
    func engineCannotStart() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "--lang", "eng+deu"])
        #expect(run.status == 69)
        #expect(run.error.hasPrefix("snap-poem: error: language 'deu' not found in tessdata at "), "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1)
    }
}
