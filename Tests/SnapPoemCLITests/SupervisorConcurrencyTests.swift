import Foundation
import Synchronization
import Testing

@testable import SnapPoemCLI

/// Runs a supervised batch inside the test process, so that `make test`'s ThreadSanitizer
/// build (which runs every suite named `…ConcurrencyTests`) watches the supervisor's reader
/// threads, its event loop and the delivery actor while workers answer, crash and are
/// replaced.
@Suite("The batch supervisor under ThreadSanitizer: workers answering, crashing and replaced")
struct SupervisorConcurrencyTests {
    @Test("Two workers, an abort in the middle: every outcome delivered once, in input order on standard output")
    func supervisedInProcess() async throws {
        let input = try BatchFixtures.folder([
            "a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small, "c.jpg": BatchFixtures.small, "d.png": "",
        ])
        defer { BatchFixtures.remove(input) }
        // The fault switch goes to this run's workers only (never setenv: other tests' workers
        // would see it too).
        var environment = ProcessInfo.processInfo.environment
        environment["SNAP_POEM_TEST_ONLY_WORKER_FAULTS"] = "abort:b.jpg"
        let output = Mutex(Data()), error = Mutex("")
        let console = Console(
            writeOutput: { data in output.withLock { $0.append(data) } }, writeError: { text in error.withLock { $0 += text } },
            errorIsTerminal: false)
        let status = await SnapPoemCommand.run([input.path, "-j", "2"], console: console, environment: environment)
        let printed = String(decoding: output.withLock { $0 }, as: UTF8.self), said = error.withLock { $0 }
        #expect(status == 1)
        let headers = printed.split(separator: "\n").filter { $0.hasPrefix("==> ") }
        #expect(headers == ["==> \(input.path)/a.jpg <==", "==> \(input.path)/c.jpg <=="])
        // SIGABRT; under ThreadSanitizer its runtime may catch the signal and exit instead.
        #expect(
            said.contains("snap-poem: error: \(input.path)/b.jpg: worker crashed: signal 6 (SIGABRT, aborted)\n")
                || said.contains("snap-poem: error: \(input.path)/b.jpg: worker exited with status "), "\(said)")
        #expect(said.hasSuffix("snap-poem: 4 images: 2 written, 0 skipped (done before), 2 failed, 0 cancelled\n"), "\(said)")
    }
}
