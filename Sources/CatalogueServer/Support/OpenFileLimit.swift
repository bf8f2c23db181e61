#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, which bounds how many connections the server can hold
/// (``ConnectionLimit``).
///
/// ```swift
/// OpenFileLimit.raiseToHardLimit()   // e.g. 1,024 → 524,288 under systemd
/// OpenFileLimit.current              // 524288
/// ```
package enum OpenFileLimit {
    /// The soft limit (`ulimit -n`); nil when unlimited or unknown.
    package static var current: Int? {
        var limit = rlimit()
        // RLIM_INFINITY is UInt.max on Linux and Int.max on Darwin (Swift imports neither well).
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }

    /// Raises the soft limit (`ulimit -n`, often 1,024) to the hard limit, as far as an
    /// unprivileged process may, so that `--max-connections` is not cut down by a default that
    /// suits programs that open a few files. Leaves the limit as it was when that fails.
    package static func raiseToHardLimit() {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        var raised = limit
        #if canImport(Darwin)
        // Darwin refuses more than OPEN_MAX for an unlimited hard limit.
        raised.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #else
        raised.rlim_cur = limit.rlim_max
        #endif
        _ = setrlimit(resource, &raised)
    }

    /// `RLIMIT_NOFILE`, whose type differs between Glibc and Darwin.
    private static var resource: Int32 {
        #if canImport(Glibc)
        Int32(RLIMIT_NOFILE.rawValue)
        #else
        RLIMIT_NOFILE
        #endif
    }
}
#endif
