import Foundation

/// Finds the `snap-poem` executable that batch workers run (the same program, in its worker
/// mode).
enum WorkerExecutable {
    /// `/proc/self/exe` when this process is `snap-poem` (it names the running program even
    /// if its file was replaced meanwhile); otherwise, when the command runs inside another
    /// program (the test runner), the `snap-poem` beside that program.
    static func locate() -> Result<String, WorkerExecutableMissing> {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let url = URL(fileURLWithPath: running)
        if url.lastPathComponent == "snap-poem" { return .success("/proc/self/exe") }
        let beside = url.deletingLastPathComponent().appendingPathComponent("snap-poem").path
        if FileManager.default.isExecutableFile(atPath: beside) { return .success(beside) }
        return .failure(
            WorkerExecutableMissing(message: "cannot find the snap-poem executable to run batch workers (looked beside \(running))"))
    }
}

/// The `snap-poem` executable could not be found.
struct WorkerExecutableMissing: Error {
    let message: String
}
