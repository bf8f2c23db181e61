/// Hands the changes an engine learns of to every stream returned by its `changes(…)`: the
/// part of change observation every engine shares.
///
/// An engine publishes its own commits as they happen (``publish(_:)``) and gives each stream a
/// way to learn of other writers' commits (a poll, or a notification listener).
///
/// ```swift
/// let hub = ChangeHub()
/// let stream = hub.stream(watchingElsewhere: { _ in })   // the engine's own commits only
/// hub.publish(DatabaseChange(tables: ["product"], rowIDs: ["product": [7]], origin: .thisCatalogue))
/// ```
package final class ChangeHub: Sendable {
    /// A stream's continuation, by the id that removes it when the stream ends.
    private struct Subscriber {
        let id: UInt64
        let continuation: AsyncThrowingStream<DatabaseChange, any Error>.Continuation
    }

    // An array, not a dictionary by id: publishing reads every stream either way, a stream's
    // end removes it in one pass, and a dictionary's type, made when any engine opens, has the
    // Swift runtime scan every protocol conformance record of the binary to check
    // `UInt64: Hashable` (about 1 % of a cold `catalogue search`).
    private let subscribers = Locked<[Subscriber]>([])
    private let nextID = Locked<UInt64>(0)

    package init() {}

    /// Whether any stream is listening (an engine can skip collecting changes otherwise).
    package var hasSubscribers: Bool {
        subscribers.withLock { !$0.isEmpty }
    }

    /// Delivers `change` to every stream.
    package func publish(_ change: DatabaseChange) {
        for subscriber in subscribers.withLock({ $0 }) {
            subscriber.continuation.yield(change)
        }
    }

    /// A stream of every published change and of what `watchElsewhere` yields: an async function
    /// that runs for the stream's life (until cancelled), calling its argument with each change
    /// made elsewhere. An error it throws ends the stream with that error. `executor`, when
    /// given, runs the watcher (an engine's own threads, so a watcher starts even while
    /// callers block Swift concurrency's few threads).
    package func stream(
        on executor: (any TaskExecutor)? = nil,
        watchingElsewhere watchElsewhere: @escaping @Sendable (_ yield: @Sendable (DatabaseChange) -> Void) async throws -> Void
    ) -> AsyncThrowingStream<DatabaseChange, any Error> {
        AsyncThrowingStream { continuation in
            let id = nextID.withLock { id in
                id += 1
                return id
            }
            subscribers.withLock { $0.append(Subscriber(id: id, continuation: continuation)) }
            let watcher = Task(executorPreference: executor) {
                do {
                    try await watchElsewhere { continuation.yield($0) }
                } catch is CancellationError {
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            // The subscriber table, not `self`, is captured: a weak reference to the hub would
            // leave its side table reachable only through the hub's encoded reference count once
            // the stream ends, which LeakSanitizer reports as a leak (llvm/llvm-project#56751).
            // The table holds this continuation until then; ending the stream breaks that cycle.
            continuation.onTermination = { [subscribers] _ in
                watcher.cancel()
                subscribers.withLock { $0.removeAll { $0.id == id } }
            }
        }
    }
}
