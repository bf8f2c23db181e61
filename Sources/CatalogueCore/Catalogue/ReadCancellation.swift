import Synchronization

/// Whether the task awaiting an `async` read has been cancelled, as the thread running the read
/// sees it.
///
/// The `async` reads of ``Catalogue`` and ``PreparedSearch`` run their work on a thread of
/// their own, which holds one of these in ``current`` while it runs; the awaiting task's
/// cancellation sets it. The engines look at it while they read: SQLite stops the running
/// statement (a progress check every thousand or so of its instructions), PostgreSQL starts no
/// further statement. The call then throws `CancellationError`. Writes never look at it: once
/// started, a write runs to its end, all of it or none.
///
/// ```swift
/// if ReadCancellation.current?.isCancelled == true { throw CancellationError() }
/// ```
package final class ReadCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    package init() {}

    /// Whether the awaiting task has been cancelled.
    package var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }

    /// Marks the read cancelled (from the task's cancellation handler, on any thread).
    package func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// The cancellation of the `async` read the calling thread runs, if it runs one.
    package static var current: ReadCancellation? {
        slot.value
    }

    /// Runs `body` with `cancellation` as the calling thread's ``current`` (nil: no read to
    /// stop, for a transaction's end or a write), then puts back the one before.
    ///
    /// ```swift
    /// try ReadCancellation.with(nil) { try runner.execute("ROLLBACK") }
    /// ```
    package static func with<T>(_ cancellation: ReadCancellation?, _ body: () throws -> T) rethrows -> T {
        let outer = slot.value
        slot.value = cancellation
        defer { slot.value = outer }
        return try body()
    }

    private static let slot = ThreadSlot<ReadCancellation>()
}
