import Foundation

/// The `snap-poem` executable the end-to-end tests run: the one `swift test` builds beside the
/// test bundle, or, when `SNAP_POEM_TEST_BINARY` names one, that one, such as the binary that
/// `make install` stages and the .deb ships (`make test-shipped`).
public enum TestedExecutable {
    /// The environment variable that names another executable to test.
    public static let variable = "SNAP_POEM_TEST_BINARY"

    /// The executable's location.
    public static let url: URL = {
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("snap-poem")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/snap-poem")
    }()

    /// Whether the executable is one other than the development build beside the tests (a
    /// release build has no test hooks: tests that inject faults into workers skip it).
    public static var isShipped: Bool {
        ProcessInfo.processInfo.environment[variable].map { !$0.isEmpty } ?? false
    }
}
