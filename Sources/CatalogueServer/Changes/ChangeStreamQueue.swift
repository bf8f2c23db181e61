#if Server
import CatalogueCore

/// The events waiting for one change stream's client, at most `capacity` of them. A client so
/// far behind that older events had to be dropped is told to reload: its next event is a change
/// with `reload` set, so it refreshes what it shows instead of missing changes without knowing.
///
/// ```swift
/// let queue = ChangeStreamQueue(entity: .products)
/// queue.push(.change(event))                           // from the broadcaster
/// for await event in queue.events {                  // to the client
///     if let reload = queue.reloadIfDropped() { write(reload) }
///     write(event)
/// }
/// ```
final class ChangeStreamQueue: Sendable {
    /// The events, oldest first; finished by ``finish()``.
    let events: AsyncStream<ServerSentEvent>
    private let continuation: AsyncStream<ServerSentEvent>.Continuation
    private let entity: CatalogueEntity
    /// Whether an event was dropped since the client was last told to reload.
    private let dropped = Locked(false)

    init(entity: CatalogueEntity, capacity: Int = 1_000) {
        (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self, bufferingPolicy: .bufferingNewest(capacity))
        self.entity = entity
    }

    /// Queues `event`; when the queue is full, the oldest waiting event is dropped.
    func push(_ event: ServerSentEvent) {
        if case .dropped = continuation.yield(event) {
            dropped.withLock { $0 = true }
        }
    }

    /// No more events.
    func finish() {
        continuation.finish()
    }

    /// A change that says reload, to write before the event just taken from ``events``, when
    /// events were dropped since the last one; nil otherwise.
    func reloadIfDropped() -> ServerSentEvent? {
        let wasDropped = dropped.withLock { dropped in
            defer { dropped = false }
            return dropped
        }
        return wasDropped ? .change(ChangeEvent(entity: entity, reload: true)) : nil
    }
}
#endif
