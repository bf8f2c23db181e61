#if Server
import CatalogueCore

/// The events waiting for one change stream's client, at most `capacity` of them. A client so
/// far behind that older events had to be dropped is told to reload: its next event is a change
/// with `reload` set, so it refreshes what it shows instead of missing changes without knowing.
///
/// ```swift
/// let queue = ChangeStreamQueue(entity: .products)
/// queue.push(.change(event))                           // from the broadcaster
/// for await event in queue.events { write(queue.withReloadIfDropped(event)) }  // to the client
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

    /// What to write for `event`, taken from ``events``: the event, preceded by a change that
    /// says reload when events were dropped before it.
    func withReloadIfDropped(_ event: ServerSentEvent) -> [ServerSentEvent] {
        let wasDropped = dropped.withLock { dropped in
            defer { dropped = false }
            return dropped
        }
        guard wasDropped else { return [event] }
        return [.change(ChangeEvent(entity: entity, reload: true)), event]
    }
}
#endif
