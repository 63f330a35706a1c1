import Foundation

/// The process's address-space limit (`ulimit -v`, `RLIMIT_AS`), read where the executable
/// decides something by it: how many malloc arenas to allow, what to say when a thread
/// cannot start.
enum AddressSpaceLimit {
    /// The soft limit in bytes; nil when there is none (or it cannot be read).
    static var current: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
