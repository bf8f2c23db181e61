#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A per-thread slot holding an object (a pthread key, created once) for what one thread is
/// doing: the reader it holds, the write it runs, the async read it runs. Not a task-local,
/// which a task started inside the work would inherit on another thread. The slot does not
/// retain the object: whoever sets it keeps the object alive until it clears the slot.
///
/// ```swift
/// private static let slot = ThreadSlot<PooledReader>()
/// slot.value = reader
/// defer { slot.value = nil }
/// ```
package final class ThreadSlot<Object: AnyObject>: Sendable {
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
    }

    /// The calling thread's object, if it set one.
    package var value: Object? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
        }
    }
}
