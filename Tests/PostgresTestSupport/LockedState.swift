import Foundation

/// The server's mutable state, guarded by a lock (`NSLock`, which ThreadSanitizer understands).
final class LockedState: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    struct Value {
        var stopped = false
        var databaseCount = 0
        /// The running postmaster (a child of this process), nil between
        /// ``PostgresTestServer/stopImmediately()`` and ``PostgresTestServer/restart()``.
        var postmaster: Process?
    }

    private let lock = NSLock()
    private var value = Value()

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
