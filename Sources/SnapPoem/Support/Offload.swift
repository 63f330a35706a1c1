import Dispatch

/// Runs blocking or CPU-heavy work on a global Dispatch queue and hands its result, or its
/// error, back to the calling task, so that Swift's small cooperative pool, which every task
/// shares, is never blocked: decoding and preparing images, exports, waiting on a pipe or a
/// child process. The one helper of its kind, for the library and its front ends alike.
///
/// The work is not cancelled: once started it runs to its end, and the task waits for it.
/// Work that waits on something outside takes `offloadStoppable(qos:_:)` instead.
///
/// - Parameters:
///   - qos: the quality of service of the global queue; `.userInitiated` unless a caller's
///     work is background housekeeping.
///   - work: what to run; it must not touch the calling task's isolated state.
/// - Throws: what `work` throws, typed.
package func offload<T: Sendable, Failure: Error>(
    qos: DispatchQoS.QoSClass = .userInitiated,
    _ work: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: qos).async {
            do throws(Failure) {
                continuation.resume(returning: .success(try work()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
    }
    return try result.get()
}

/// `offload(qos:_:)` for work that can wait on something outside (standard input, a file that
/// keeps its reader waiting): `work` is handed a flag that cancelling the calling task
/// raises, and asks it while it waits.
package func offloadStoppable<T: Sendable, Failure: Error>(
    qos: DispatchQoS.QoSClass = .userInitiated,
    _ work: @escaping @Sendable (StopFlag) throws(Failure) -> T
) async throws(Failure) -> T {
    let stop = StopFlag()
    let result: Result<T, Failure> = await withTaskCancellationHandler {
        do throws(Failure) {
            return .success(try await offload(qos: qos) { () throws(Failure) in try work(stop) })
        } catch {
            return .failure(error)
        }
    } onCancel: {
        stop.raise()
    }
    return try result.get()
}
