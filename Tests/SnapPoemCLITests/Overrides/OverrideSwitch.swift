import CProcessOverrides
import Foundation
import SnapPoem
import Synchronization
import Testing

/// The executable's overrides as the tests switch them: the test process installs them at
/// load, as `snap-poem` does first thing (`Tests/Setup`).
enum OverrideSwitch {
    /// How many `off` calls are under way, per override: the last to end switches it on again.
    private static let offCalls = Mutex<[UInt32: Int]>([:])

    /// Runs `body` with `override` off, and switches it on again however `body` ends (unless
    /// another `off` of the same override is still running). Only what starts while it is off
    /// goes to the library's own definition.
    static func off<Result>(_ override: snap_poem_override, _ body: () async throws -> Result) async throws -> Result {
        let index = Int32(override.rawValue)
        let installed = snap_poem_override_state_of(index)
        try #require(
            installed == Int32(SNAP_POEM_OVERRIDE_IN_EFFECT.rawValue) || installed == Int32(SNAP_POEM_OVERRIDE_SWITCHED_OFF.rawValue),
            "the override was not installed in the test process")
        offCalls.withLock { calls in
            calls[override.rawValue, default: 0] += 1
            _ = snap_poem_override_set_enabled(index, 0)
        }
        defer {
            offCalls.withLock { calls in
                calls[override.rawValue, default: 1] -= 1
                if calls[override.rawValue] == 0 { _ = snap_poem_override_set_enabled(index, 1) }
            }
        }
        return try await body()
    }
}

/// Decodes and prepares a sample the way the pipeline does.
func preparedSample(_ name: String) throws -> PoemImage {
    let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(name))
    return try ImagePreprocessor.prepare(image, options: PreprocessingOptions(scaling: .maxDimension(4000)))
}
