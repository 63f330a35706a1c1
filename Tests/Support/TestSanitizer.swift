import Foundation

/// The sanitizer the tests run under, as `make test-asan` and `make test-tsan` say through
/// `SNAP_POEM_TESTS_SANITIZER` (`address`, `thread`), and what it costs.
public enum TestSanitizer {
    /// `address`, `thread`, or nil without a sanitizer.
    public static let name: String? = ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_SANITIZER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// How many times longer the same work takes: 3 under a sanitizer, else 1. AddressSanitizer
    /// checks every memory access, ThreadSanitizer every access and every lock: two to three
    /// times the processor time (the whole suite: see the Makefile's test-asan). Only waits
    /// and bounds on time that such work legitimately stretches are scaled by it, never a
    /// bound that says how long something may take relative to something else.
    public static var slowdown: Int { name == nil ? 1 : 3 }

    /// `duration`, scaled by `slowdown`.
    public static func scaled(_ duration: Duration) -> Duration { duration * slowdown }
}
