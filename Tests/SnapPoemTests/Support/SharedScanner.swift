import SnapPoem

/// One scanner with the default configuration, shared by the tests that only read images:
/// each scanner loads ≈ 50 MB of models, and scans through one scanner queue up instead of
/// competing for the machine's two cores.
enum SharedScanner {
    private static let scanner = Task { () async throws -> PoemScanner in try await PoemScanner() }

    /// The shared default scanner.
    static func get() async throws -> PoemScanner {
        try await scanner.value
    }
}
