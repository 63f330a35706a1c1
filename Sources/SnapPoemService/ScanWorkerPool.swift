import SnapPoem

import Synchronization

/// The service's workers and the bounded queue in front of them.
///
/// `checkOut` hands a free worker to a request at once, makes it wait its turn (first come,
/// first served) while fewer than `queueLimit` requests wait, and refuses it otherwise, so
/// that a burst is answered "busy" at once instead of piling up behind the engines.
///
/// A worker comes back only once its engines have stopped (`release`): a time limit or a
/// cancellation answers a request while Tesseract may still be in its layout analysis, and
/// an engine handed out then would make the next request wait behind work it never asked
/// for.
///
/// A request that finds another worker idle and nobody waiting borrows that worker's engine
/// too (`Lease.loan`, an `EngineLoan`): its lines are read by two engines at once. The
/// next request to arrive takes the lent worker back; the loan ends within the line the
/// lent engine is reading, and the worker goes to that request.
actor ScanWorkerPool {
    /// Why a request got no worker.
    enum Refusal: Error {
        /// `queueLimit` requests are already waiting.
        case queueFull
        /// The waiting request was cancelled.
        case cancelled
        /// No worker came back within the wait the request allowed (`checkOut(waitingAtMost:)`).
        case waitedTooLong
    }

    /// What one request holds; given back with `release`.
    struct Lease: Sendable {
        /// The worker that reads the request's image.
        let worker: ScanWorker
        /// The engine of an idle worker, lent to this request until another one needs it.
        var loan: EngineLoan?
    }

    /// A worker lent out, and its loan.
    private struct LentWorker {
        let worker: ScanWorker
        let loan: EngineLoan
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Result<ScanWorker, Refusal>, Never>
    }

    private var idle: [ScanWorker]
    /// Workers whose engines are lent, by loan.
    private var lent: [ObjectIdentifier: LentWorker] = [:]
    /// Lent workers on their way back to waiting requests: each makes room for one more
    /// waiter.
    private var reclaiming = 0
    /// Whether an idle worker's engine is lent to a lone request: not without a queue, where
    /// a request that finds every worker busy is refused at once instead of waiting for one
    /// to come back.
    let lends: Bool
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    /// All workers, idle or busy.
    let size: Int
    /// How many requests may wait for a worker.
    let queueLimit: Int
    /// The number of waiting requests, readable without awaiting the actor (for metrics and
    /// readiness).
    nonisolated let depth = Atomic<Int>(0)
    /// The number of workers not idle: handed out, or released and still stopping.
    nonisolated let busy = Atomic<Int>(0)
    /// The number of workers released whose engines are still running (after a time limit
    /// or a cancellation answered their request); they are counted in `busy` too.
    nonisolated let stopping = Atomic<Int>(0)

    /// Since when each worker not idle has been handed out (its request's reading, then its
    /// stopping), readable without awaiting the actor (for `Retry-After`).
    nonisolated let busySince = Mutex<[ObjectIdentifier: ContinuousClock.Instant]>([:])

    /// A pool of `workers` with room for `queueLimit` waiting requests, lending idle
    /// workers' engines to lone requests when `lends` (and the queue has room).
    init(workers: [ScanWorker], queueLimit: Int, lends: Bool = true) {
        idle = workers
        size = workers.count
        self.queueLimit = max(0, queueLimit)
        self.lends = lends && queueLimit > 0
    }

    /// Whether every worker is finishing work its request no longer waits for: a new request
    /// would wait for Tesseract to stop first, however long its layout analysis takes.
    nonisolated var allStopping: Bool { stopping.load(ordering: .relaxed) >= size }

    /// Whether a new request would be refused now.
    nonisolated var isFull: Bool {
        busy.load(ordering: .relaxed) >= size && depth.load(ordering: .relaxed) >= queueLimit
    }

    /// A lease of one free worker, after waiting in the queue if need be, at most `limit`
    /// (`Refusal.waitedTooLong` then): every engine may be finishing layout analysis that
    /// earlier requests' time limits abandoned, which on a hostile page takes minutes.
    func checkOut(waitingAtMost limit: Duration? = nil) async throws(Refusal) -> Lease {
        if let worker = idle.popLast() {
            busy.add(1, ordering: .relaxed)
            busySince.withLock { $0[ObjectIdentifier(worker)] = .now }
            var lease = Lease(worker: worker)
            if lends, waiters.isEmpty, let lender = idle.popLast() {
                busy.add(1, ordering: .relaxed)
                busySince.withLock { $0[ObjectIdentifier(lender)] = .now }
                let loan = EngineLoan(lending: lender.initial)
                lent[ObjectIdentifier(loan)] = LentWorker(worker: lender, loan: loan)
                lease.loan = loan
            }
            return lease
        }
        // A worker lent to another request comes back for this one, after its line.
        if let (key, taken) = lent.first {
            lent[key] = nil
            reclaiming += 1
            Task {
                await self.giveBack(taken)
                self.reclaimed()
            }
        }
        guard waiters.count < queueLimit + reclaiming else { throw .queueFull }
        nextWaiterID += 1
        let id = nextWaiterID
        let timer = limit.map { limit in
            Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { self.leave(id, because: .waitedTooLong) }
            }
        }
        defer { timer?.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append(Waiter(id: id, continuation: continuation))
                depth.store(waiters.count, ordering: .relaxed)
                if Task.isCancelled { leave(id) }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
        return Lease(worker: try result.get())
    }

    /// Gives back the lease's worker, and the one lent to it if it is still lent (`giveBack`).
    func release(_ lease: Lease) async {
        if let loan = lease.loan, let taken = lent.removeValue(forKey: ObjectIdentifier(loan)) {
            await giveBack(taken)
        }
        await release(lease.worker)
    }

    /// Gives back `worker`: at once when its engines are idle (the usual case), else once they
    /// have finished everything they were given, in a task of its own, counted as `stopping`
    /// meanwhile. Returns without waiting for a stopping engine, so the answer does not wait
    /// for it either.
    private func release(_ worker: ScanWorker) async {
        if await worker.enginesIdle {
            checkIn(worker)
            return
        }
        stopping.add(1, ordering: .relaxed)
        // Not a child of the request's task: its cancellation must not skip the wait.
        Task.detached {
            await worker.finishWork()
            self.stopping.subtract(1, ordering: .relaxed)
            await self.checkIn(worker)
        }
    }

    /// Takes a lent worker's engine back and returns the worker (once its engines have
    /// stopped). The caller removed it from `lent` first, so that it comes back once.
    private func giveBack(_ taken: LentWorker) async {
        await taken.loan.takeBack()
        await release(taken.worker)
    }

    /// Counts a reclaimed worker as back (its waiter has it, or it is idle).
    private func reclaimed() { reclaiming -= 1 }

    /// Returns a worker whose engines are idle: the longest-waiting request gets it, or it
    /// becomes idle.
    private func checkIn(_ worker: ScanWorker) {
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            depth.store(waiters.count, ordering: .relaxed)
            busySince.withLock { $0[ObjectIdentifier(worker)] = .now }
            waiter.continuation.resume(returning: .success(worker))
        } else {
            busy.subtract(1, ordering: .relaxed)
            busySince.withLock { $0[ObjectIdentifier(worker)] = nil }
            idle.append(worker)
        }
    }

    /// Takes a request out of the queue (cancelled, or waiting past its limit), if it still
    /// waits.
    private func leave(_ id: UInt64, because refusal: Refusal = .cancelled) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        depth.store(waiters.count, ordering: .relaxed)
        waiter.continuation.resume(returning: .failure(refusal))
    }
}
