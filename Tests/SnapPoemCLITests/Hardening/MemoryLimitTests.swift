import Foundation
import Synchronization
import Testing

/// Rows 5, 6, 7 and 9 of the hardening issue: under `ulimit -v` snap-poem used to trap
/// (a nil from Leptonica), abort (Tesseract's `std::bad_alloc`), hang (libdispatch retrying
/// a thread for ever, even for `--version`) or blame the file ("JPEG data is damaged").
/// Every run below must end by itself, by exit code rather than a signal, with one error
/// line that says memory ran out.
@Suite(
    "Under a memory limit (ulimit -v): an error that says so, never a trap, abort or hang",
    .enabled(if: Spawned.memoryLimitsUnavailable == nil, "not under AddressSanitizer"),
    // One run at a time: each is timed, and a dozen 12-megapixel decodes at once on two cores
    // would measure the machine's load, not the run.
    .serialized)
struct MemoryLimitTests {
    static let photo = Fixtures.sample("photo-phone-size.jpg")

    @Test("--version, --help and a usage error answer under 150 MB, where no thread can start")
    func answersWithoutThreads() async throws {
        let version = try await Spawned.run(["--version"], memoryLimitKilobytes: 150 * 1024, timeout: .seconds(30))
        #expect(!version.timedOut && version.status == 0)
        #expect(String(decoding: version.output, as: UTF8.self).hasPrefix("snap-poem "))
        let help = try await Spawned.run(["--help"], memoryLimitKilobytes: 150 * 1024, timeout: .seconds(30))
        #expect(!help.timedOut && help.status == 0)
        let usage = try await Spawned.run(["--jobs", "0", "x.png"], memoryLimitKilobytes: 150 * 1024, timeout: .seconds(30))
        #expect(!usage.timedOut && usage.status == 64)
    }

    @Test("An image under 150 000 KiB, where no thread can start: one clear error, no hang, an exit code below 128")
    func imageWithoutThreads() async throws {
        // A hang (libdispatch retrying a thread for ever) is caught by the time limit; the work
        // done before the error is bounded in processor time, which the machine's load does
        // not stretch as it stretches the wall time.
        let run = try await Spawned.run([Self.photo], memoryLimitKilobytes: 150_000, timeout: .seconds(120))
        #expect(!run.timedOut, "hung")
        #expect(run.processorTime < .seconds(20), "used \(run.processorTime) of processor time")
        #expect(run.signal == nil && run.status > 0 && run.status < 128, "exit \(run.status), signal \(run.signal ?? 0)")
        #expect(run.errorLines.count == 1, "\(run.error)")
        let line = String(run.errorLines.first ?? "")
        #expect(line.hasPrefix("snap-poem: error: ") && line.contains("out of memory"), "\(line)")
    }

    /// What each limit gave, for the test that checks every mechanism was met.
    static let seen = Mutex<[Int: String]>([:])

    /// From where no thread can start to where the photo is read (about 380 MB): every 10 MB
    /// where the failures change (Tesseract's start fails in a band about 20 MB wide, at
    /// 180–200 MB for the development build and about 200 MB for the shipped one), then every 20.
    static let limits = Array(stride(from: 140, through: 300, by: 10)) + Array(stride(from: 320, through: 400, by: 20)) + [440, 480]

    @Test("A 12-megapixel photo under limits from 140 to 480 MB", arguments: limits)
    func photoUnderLimit(megabytes: Int) async throws {
        let run = try await Spawned.run([Self.photo], memoryLimitKilobytes: megabytes * 1024, timeout: .seconds(120))
        #expect(!run.timedOut, "\(megabytes) MB: hung")
        #expect(run.signal == nil, "\(megabytes) MB: killed by signal \(run.signal ?? 0): \(run.error)")
        if run.status == 0 {
            #expect(!run.output.isEmpty)
            Self.seen.withLock { $0[megabytes] = "read" }
            return
        }
        #expect([1, 69].contains(run.status), "\(megabytes) MB: exit \(run.status)")
        #expect(run.output.isEmpty)
        #expect(run.errorLines.count == 1, "\(megabytes) MB: \(run.error)")
        let line = String(run.errorLines.first ?? "")
        #expect(line.hasPrefix("snap-poem: error: "))
        #expect(line.contains("out of memory"), "\(megabytes) MB: \(line)")
        #expect(!line.contains("damaged"))
        Self.seen.withLock { $0[megabytes] = line }
    }

    @Test("Across the limits, each failure is met and named: Tesseract's start, the JPEG decoder, a Leptonica step")
    func everyMechanism() async throws {
        var lines: [Int: String] = Self.seen.withLock { $0 }
        // Run the sweep here too when this test runs first or alone.
        for megabytes in Self.limits where lines[megabytes] == nil {
            let run = try await Spawned.run([Self.photo], memoryLimitKilobytes: megabytes * 1024, timeout: .seconds(120))
            lines[megabytes] = run.status == 0 ? "read" : String(run.errorLines.first ?? "")
        }
        let all = lines.values
        #expect(all.contains { $0.contains("Tesseract could not start: out of memory") }, "\(lines)")
        #expect(all.contains { $0.contains("out of memory while decoding the 4032×3024 JPEG image") }, "\(lines)")
        #expect(all.contains { $0.contains("out of memory while running Leptonica's ") }, "\(lines)")
        #expect(all.contains { $0 == "read" }, "480 MB should be enough: \(lines)")
    }

    @Test("--jobs 8 under ulimit -v 480 MB: each worker is a process with the limit to itself, so every image is read, none dropped")
    func workersUnderALimit() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Data(contentsOf: Fixtures.root.appendingPathComponent("Fuzz/Corpus/image/png-gray-16x8.png"))
        for index in 1...8 { try image.write(to: folder.appendingPathComponent("p\(index).png")) }
        let output = folder.appendingPathComponent("texts")
        let run = try await Spawned.run(
            ["--jobs", "8", folder.path, "--output-dir", output.path], memoryLimitKilobytes: 480 * 1024, timeout: .seconds(120))
        #expect(!run.timedOut && run.signal == nil)
        // A blank 16×8 image reads as "no text": a warning each, but every image is accounted for.
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("8 images: 8 written"), "\(run.error)")
        let manifest = try String(contentsOf: output.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 8)
        #expect(run.output.isEmpty)
    }
}
