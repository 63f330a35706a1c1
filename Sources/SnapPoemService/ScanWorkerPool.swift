import Synchronization

/// The service's workers and the bounded queue in front of them.
///
/// `checkOut` hands a free worker to a request at once, makes it wait its turn (first come,
/// first served) while fewer than `queueLimit` requests wait, and refuses it otherwise, so
/// that a burst is answered "busy" at once instead of piling up behind the engines.
actor ScanWorkerPool {
    /// Why a request got no worker.
    enum Refusal: Error {
        /// `queueLimit` requests are already waiting.
        case queueFull
        /// The waiting request was cancelled.
        case cancelled
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Result<ScanWorker, Refusal>, Never>
    }

    private var idle: [ScanWorker]
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    /// All workers, idle or busy.
    let size: Int
    /// How many requests may wait for a worker.
    let queueLimit: Int
    /// The number of waiting requests, readable without awaiting the actor (for metrics and
    /// readiness).
    nonisolated let depth = Atomic<Int>(0)
    /// The number of workers handed out.
    nonisolated let busy = Atomic<Int>(0)

    init(workers: [ScanWorker], queueLimit: Int) {
        idle = workers
        size = workers.count
        self.queueLimit = max(0, queueLimit)
    }

    /// Whether a new request would be refused now.
    nonisolated var isFull: Bool {
        busy.load(ordering: .relaxed) >= size && depth.load(ordering: .relaxed) >= queueLimit
    }

    /// A free worker, after waiting in the queue if need be.
    func checkOut() async throws(Refusal) -> ScanWorker {
        if let worker = idle.popLast() {
            busy.add(1, ordering: .relaxed)
            return worker
        }
        guard waiters.count < queueLimit else { throw .queueFull }
        nextWaiterID += 1
        let id = nextWaiterID
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append(Waiter(id: id, continuation: continuation))
                depth.store(waiters.count, ordering: .relaxed)
                if Task.isCancelled { leave(id) }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
        return try result.get()
    }

    /// Returns a worker: the longest-waiting request gets it, or it becomes idle.
    func checkIn(_ worker: ScanWorker) {
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            depth.store(waiters.count, ordering: .relaxed)
            waiter.continuation.resume(returning: .success(worker))
        } else {
            busy.subtract(1, ordering: .relaxed)
            idle.append(worker)
        }
    }

    /// Takes a cancelled request out of the queue.
    private func leave(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        depth.store(waiters.count, ordering: .relaxed)
        waiter.continuation.resume(returning: .failure(.cancelled))
    }

}
