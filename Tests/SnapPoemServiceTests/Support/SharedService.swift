import SnapPoemService
import SnapPoemTestSupport

/// One service with one worker, a long queue and a long time limit (tests run in parallel on a
/// busy machine), shared by the tests that call it directly:
/// each worker loads ≈ 40 MB of models. The time limit is also the longest a request waits
/// for the engine, behind every other test's: three times as long under a sanitizer, where
/// each reading takes that much longer (`TestSanitizer`).
enum SharedService {
    /// Its time limit in seconds, which the tests of its error messages name.
    static let maxSeconds = 600 * TestSanitizer.slowdown

    private static let service = Task { () async throws -> PoemService in
        try await PoemService(configuration: ServiceConfiguration(workers: 1, queueLimit: 1000, maxTimeLimit: .seconds(maxSeconds)))
    }

    static func get() async throws -> PoemService {
        try await service.value
    }
}
