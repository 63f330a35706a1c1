import Foundation
import SnapPoem
import Synchronization
import Testing

@testable import SnapPoemCLI

@Suite("What a batch says while it runs: the progress bar, --progress json, -q, -v")
struct ProgressOutputTests {
    /// A console that says it is a terminal and keeps what is written to standard error.
    static func terminal() -> (Console, @Sendable () -> String) {
        let written = Mutex("")
        let console = Console(writeOutput: { _ in }, writeError: { text in written.withLock { $0 += text } }, errorIsTerminal: true)
        return (console, { written.withLock { $0 } })
    }

    @Test("On a terminal the bar shows done/total, rate, time left and failures, and is drawn again after every message")
    func bar() {
        let (console, written) = Self.terminal()
        let diagnostics = DiagnosticsEngine(console: console)
        diagnostics.startBatch(total: 4, toRead: 3, skipped: 1, workers: 2)
        diagnostics.imageFinished(BatchInput(path: "a.png"), status: .ok, note: nil)
        diagnostics.emit(Diagnostic(.error, "b.png: the file is empty (0 bytes), not an image"))
        diagnostics.imageFinished(BatchInput(path: "b.png"), status: .failed, note: nil)
        diagnostics.endBatch(BatchSummary(images: 4, written: 1, partial: 0, skipped: 1, failed: 1, cancelled: 0))
        let text = written()
        let erase = "\r\u{1B}[K"
        // The error line erases the bar, and the bar comes back right after it.
        let error = "snap-poem: error: b.png: the file is empty (0 bytes), not an image\n"
        #expect(text.contains(erase + error + "\r[██████░░░░░░░░░░░░░░] 1/3 images"), "\(text.debugDescription)")
        let last = text.components(separatedBy: "\r").filter { $0.hasPrefix("[") }.last ?? ""
        #expect(last.hasPrefix("[█████████████░░░░░░░] 2/3 images  "), "\(last.debugDescription)")
        #expect(last.contains("/s  "))
        #expect(last.contains(" left  1 failed"))
        #expect(text.hasSuffix(erase + "snap-poem: 4 images: 1 written, 1 skipped (done before), 1 failed, 0 cancelled\n"))
    }

    @Test("--progress json: every line on standard error is a JSON event, from start to summary")
    func jsonEvents() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": ""])
        defer { BatchFixtures.remove(input) }
        let run = try await BinaryRun.run([input.path, "--progress", "json"])
        #expect(run.status == 1)
        let events = try run.error.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(events.first?["event"] as? String == "start")
        #expect(events.first?["total"] as? Int == 2)
        let images = events.filter { $0["event"] as? String == "image" }
        #expect(Set(images.compactMap { $0["input"] as? String }) == ["a.jpg", "b.png"])
        #expect(images.last?["done"] as? Int == 2)
        let diagnostic = events.first { $0["event"] as? String == "diagnostic" }
        #expect(diagnostic?["severity"] as? String == "error")
        #expect(diagnostic?["message"] as? String == "snap-poem: error: \(input.path)/b.png: the file is empty (0 bytes), not an image")
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["written"] as? Int == 1)
        #expect(summary["failed"] as? Int == 1)
        #expect(summary["exitCode"] as? Int == 1)
    }

    @Test("-q says only errors; -v also says what became of each image")
    func quietAndVerbose() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": ""])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let quiet = try await BinaryRun.run([input.path, "--output-dir", output.path, "-q", "-r", "Nobody=Alex"])
        #expect(quiet.status == 1)
        #expect(quiet.error == "snap-poem: error: \(input.path)/b.png: the file is empty (0 bytes), not an image\n")
        let verbose = try await BinaryRun.run([input.path, "--output-dir", output.path, "-v", "--force"])
        #expect(verbose.error.contains("snap-poem: \(input.path)/a.jpg: ok, confidence "), "\(verbose.error)")
        #expect(verbose.error.contains(" → \(output.path)/a.txt\n"))
        let skipped = try await BinaryRun.run([input.path, "--output-dir", output.path, "-v"])
        #expect(skipped.error.contains("snap-poem: \(input.path)/a.jpg: skipped (done before) → "), "\(skipped.error)")
    }
}
