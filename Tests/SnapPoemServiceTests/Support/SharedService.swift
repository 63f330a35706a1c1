import SnapPoemService

/// One service with one worker, a long queue and a long time limit (tests run in parallel on a
/// busy machine), shared by the tests that call it directly:
/// each worker loads ≈ 40 MB of models.
enum SharedService {
    private static let service = Task { () async throws -> PoemService in
        try await PoemService(configuration: ServiceConfiguration(workers: 1, queueLimit: 1000, maxTimeLimit: .seconds(600)))
    }

    static func get() async throws -> PoemService {
        try await service.value
    }
}
