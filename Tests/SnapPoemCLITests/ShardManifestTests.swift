import Foundation
import Testing

@Suite("Shards on a scheduler: --shard auto, one manifest per shard, --check-manifests")
struct ShardManifestTests {
    static func slurm(task: Int, of count: Int) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_ARRAY_TASK_ID"] = String(task)
        environment["SLURM_ARRAY_TASK_COUNT"] = String(count)
        environment["SLURM_ARRAY_TASK_MIN"] = "1"
        environment["SLURM_ARRAY_TASK_STEP"] = "1"
        return environment
    }

    @Test("Two Slurm array tasks write their own manifests into one folder; together they cover the folder exactly once")
    func slurmShardsAndCheck() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small, "c.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let before = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(before.status == 1)
        #expect(before.error.contains("no manifest here"))
        for task in 1...2 {
            let run = try await BinaryRun.run(
                [input.path, "--output-dir", output.path, "--shard", "auto", "-j", "1"], environment: Self.slurm(task: task, of: 2))
            #expect(run.status == 0, "\(run.error)")
        }
        #expect(
            try BatchFixtures.files(output) == [
                "a.txt", "b.txt", "c.txt", "manifest.shard-1-of-2.jsonl", "manifest.shard-2-of-2.jsonl",
            ])
        #expect(Set(try BatchFixtures.manifest(output, name: "manifest.shard-1-of-2.jsonl").keys) == ["a.jpg", "c.jpg"])
        let check = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(check.status == 0, "\(check.output)\(check.error)")
        #expect(check.output == "snap-poem: 3 images, 2 manifests: 3 covered once, 0 missing, 0 duplicated, 0 failed\n")

        // The batch run again under another split reads a.jpg into a third manifest; a new image is missing.
        let resplit = try await BinaryRun.run(
            [input.path, "--output-dir", output.path, "--shard", "auto", "-j", "1"], environment: Self.slurm(task: 1, of: 3))
        #expect(resplit.status == 0, "\(resplit.error)")
        #expect(resplit.error.hasSuffix("snap-poem: 1 image: 0 written, 1 skipped (done before), 0 failed, 0 cancelled\n"))
        try FileManager.default.copyItem(atPath: BatchFixtures.small, toPath: input.appendingPathComponent("d.jpg").path)
        let broken = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(broken.status == 1)
        #expect(
            broken.output
                == "duplicated: \(input.path)/a.jpg (manifest.shard-1-of-2.jsonl, manifest.shard-1-of-3.jsonl)\n"
                + "missing: \(input.path)/d.jpg\n"
                + "snap-poem: 4 images, 3 manifests: 2 covered once, 1 missing, 1 duplicated, 0 failed\n")
    }

    @Test("--shard auto outside a scheduler, or a Kubernetes index without N, is a usage error naming what is missing")
    func autoWithoutScheduler() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(input) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] { environment[name] = nil }
        let none = try await BinaryRun.run([input.path, "--shard", "auto"], environment: environment)
        #expect(none.status == 64)
        #expect(none.error.contains("neither a Slurm job array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)"))
        environment["JOB_COMPLETION_INDEX"] = "0"
        let kubernetes = try await BinaryRun.run([input.path, "--shard", "auto"], environment: environment)
        #expect(kubernetes.status == 64)
        #expect(kubernetes.error.contains("--shard auto/N"))
        let given = try await BinaryRun.run([input.path, "--shard", "auto/2"], environment: environment)
        #expect(given.status == 0, "\(given.error)")
        #expect(given.output.hasPrefix("==> \(input.path)/a.jpg <==\n"), "index 0 of 2 is shard 1/2, which holds a.jpg")
    }

    @Test("Each manifest line carries the coverage check's findings; --check-manifests lists pages with unread text to look at")
    func coverageInManifest() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "-j", "1"])
        #expect(run.status == 0, "\(run.error)")
        let entries = try BatchFixtures.manifest(output)
        let coverage = try #require(entries["a.jpg"]?["coverage"] as? [String: Any])
        #expect(coverage["complete"] as? Bool == true)
        #expect(coverage["unreadRegions"] as? Int == 0)
        #expect(coverage["linesReread"] as? Int == 0)
        #expect((coverage["coveredAfterReread"] as? Double ?? 0) >= 0.9)
        let check = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(check.output == "snap-poem: 2 images, 1 manifest: 2 covered once, 0 missing, 0 duplicated, 0 failed\n")

        // The same line as a page with unread text would have it: done, but listed to look at.
        let manifest = output.appendingPathComponent("manifest.jsonl")
        let lines = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").map { line -> String in
            guard line.contains("\"input\":\"b.jpg\"") else { return String(line) }
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            object["coverage"] = [
                "complete": false, "coveredBeforeReread": 0.8, "coveredAfterReread": 0.9, "linesReread": 1, "unreadRegions": 2,
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let lookAt = try await BinaryRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(lookAt.status == 0, "a page to look at is done: \(lookAt.output)")
        #expect(
            lookAt.output
                == "look at: \(input.path)/b.jpg: 2 regions of text could not be read (90 % of the text is covered)\n"
                + "snap-poem: 2 images, 1 manifest: 2 covered once, 0 missing, 0 duplicated, 0 failed; 1 to look at\n")
    }
}
