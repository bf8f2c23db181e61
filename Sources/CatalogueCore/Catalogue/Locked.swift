import Foundation

/// A value shared by threads, guarded by a lock.
///
/// `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer understands
/// pthread mutexes, while `Mutex`'s futex and atomics live in an uninstrumented library, so every
/// use of it is reported as a race under `--sanitize=thread`.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
