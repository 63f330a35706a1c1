import Glibc

/// A value that threads share behind a lock: `withLock` as `Synchronization.Mutex` has it,
/// on a POSIX mutex.
///
/// Why not `Mutex`: on Linux it takes a contended lock in the kernel (a priority-inheriting
/// futex, `FUTEX_LOCK_PI`), out of ThreadSanitizer's sight. When two threads met on one,
/// `make test`'s ThreadSanitizer suite reported races on state that was only ever touched
/// under the lock (`BatchChannel`, once the page's lines went to the engines one at a
/// time). ThreadSanitizer intercepts `pthread_mutex_lock`, so with this lock it sees the
/// order the lock gives, and a race it reports is a real one.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `value`.
    init(_ value: Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value, holding the lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
