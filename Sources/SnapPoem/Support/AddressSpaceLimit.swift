import Foundation

/// The process's address-space limit (`ulimit -v`, `RLIMIT_AS`), read wherever something is
/// decided by it: whether memory checks serialise work (`MemoryHeadroom.isLimited`), and in
/// the executable how many malloc arenas to allow and what to say when a thread cannot start.
package enum AddressSpaceLimit {
    /// The soft limit in bytes; nil when there is none (or it cannot be read).
    package static var current: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
