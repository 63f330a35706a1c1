import Dispatch

/// Runs CPU-heavy work (exports, the annotated photo, the note page) on a Dispatch thread, so
/// that Swift's small cooperative pool, which every request's task shares, stays free.
enum Offload {
    /// `work`'s result, computed on a global Dispatch queue.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }

    /// `work`'s result or error, computed on a global Dispatch queue.
    static func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
