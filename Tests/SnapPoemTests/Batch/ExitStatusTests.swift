import Foundation
import Testing

@testable import SnapPoem

@Suite("A worker's end in words, and when it is blamed on the memory limit")
struct ExitStatusTests {
    /// A `waitpid` status for death by `signal`.
    static func killed(by signal: Int32) -> Int32 { signal }
    /// A `waitpid` status for `exit(code)`.
    static func exited(_ code: Int32) -> Int32 { code << 8 }

    @Test("Signals and exit statuses are named")
    func describe() {
        #expect(ExitStatus.describe(Self.killed(by: SIGABRT)) == "worker crashed: signal 6 (SIGABRT, aborted)")
        #expect(ExitStatus.describe(Self.exited(3)) == "worker exited with status 3")
        #expect(ExitStatus.describe(Self.killed(by: SIGKILL)).contains("out-of-memory killer"))
    }

    @Test(
        "An abort after the worker said an allocation failed names the limit and the option",
        arguments: [
            "terminate called after throwing an instance of 'std::bad_alloc'",
            "Fatal error: could not allocate memory",
            "Error in pixCreate: out of memory",
        ])
    func memory(said: String) {
        let hint = ExitStatus.memoryHint(status: Self.killed(by: SIGABRT), printed: ["a.png: reading", said], limit: 2048 << 20)
        #expect(hint == ", after an allocation failed under the worker memory limit of 2048 MB; raising it may help")
    }

    @Test("No hint without a limit, without a word about memory, after a clean exit, or for SIGKILL (described already)")
    func noHint() {
        let said = ["terminate called after throwing an instance of 'std::bad_alloc'"]
        #expect(ExitStatus.memoryHint(status: Self.killed(by: SIGABRT), printed: said, limit: nil) == "")
        #expect(ExitStatus.memoryHint(status: Self.killed(by: SIGSEGV), printed: ["Segmentation fault"], limit: 1 << 30) == "")
        #expect(ExitStatus.memoryHint(status: Self.exited(1), printed: said, limit: 1 << 30) == "")
        #expect(ExitStatus.memoryHint(status: Self.killed(by: SIGKILL), printed: said, limit: 1 << 30) == "")
    }
}
