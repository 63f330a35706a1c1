import Foundation
import SnapPoemTestSupport
import Testing

/// Runs a system tool (man, bash, zsh, fish) in a folder, with an environment of the test's
/// own, and a time limit after which it is killed and the run fails.
struct ToolRun {
    let status: Int32
    let output: String
    let error: String

    /// The tool's path, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Runs `executable` with `arguments` in `folder` on a thread of its own (Swift's
    /// cooperative threads are never blocked), killing it after `timeLimit` seconds.
    static func run(
        _ executable: String, _ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
        timeLimit: Double = 120
    ) async throws -> ToolRun {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "snap-poem-tests.tool-run").async {
                do {
                    continuation.resume(
                        returning: try runBlocking(executable, arguments, in: folder, environment: environment, timeLimit: timeLimit))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], in folder: URL?, environment: [String: String]?, timeLimit: Double
    ) throws -> ToolRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        let result = try PipedProcess.run(process, input: nil) {
            let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
            return watchdog
        }
        return ToolRun(
            status: result.status,
            output: String(decoding: result.output, as: UTF8.self),
            error: String(decoding: result.error, as: UTF8.self))
    }
}
