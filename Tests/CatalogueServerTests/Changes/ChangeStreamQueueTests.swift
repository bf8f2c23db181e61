#if Server
import CatalogueCore
import Testing
@testable import CatalogueServer

/// ``ChangeStreamQueue``: a client that falls behind by more than the queue holds is told to
/// reload, never left to miss changes without knowing.
@Suite("Change stream queue")
struct ChangeStreamQueueTests {
    /// A change listing `id` as inserted.
    static func change(_ id: Int64) -> ServerSentEvent {
        .change(ChangeEvent(entity: .products, inserted: [id]))
    }

    /// What the client is sent for `event`, just taken from the queue: a reload first, when due.
    static func sent(_ event: ServerSentEvent, by queue: ChangeStreamQueue) -> [ServerSentEvent] {
        (queue.reloadIfDropped().map { [$0] } ?? []) + [event]
    }

    /// Everything the client is sent for the queued events, up to the end.
    static func written(_ queue: ChangeStreamQueue) async -> [ServerSentEvent] {
        queue.finish()
        var written: [ServerSentEvent] = []
        for await event in queue.events {
            written += Self.sent(event, by: queue)
        }
        return written
    }

    @Test("A client that keeps up gets the events as they came, without a reload")
    func keepingUp() async {
        let queue = ChangeStreamQueue(entity: .products, capacity: 3)
        let events = [ServerSentEvent.ready, Self.change(1), .keepAlive]
        events.forEach(queue.push)
        #expect(await Self.written(queue) == events)
    }

    @Test("A client behind by more than the queue holds gets a reload first, then the newest events")
    func fallingBehind() async {
        let queue = ChangeStreamQueue(entity: .products, capacity: 2)
        (1...5).map(Self.change).forEach(queue.push)
        #expect(await Self.written(queue) == [
            .change(ChangeEvent(entity: .products, reload: true)), Self.change(4), Self.change(5),
        ])
    }

    @Test("Once told, it is not told again until more events are dropped")
    func toldOnce() async {
        let queue = ChangeStreamQueue(entity: .countries, capacity: 1)
        queue.push(.keepAlive)
        queue.push(.keepAlive)
        var iterator = queue.events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first.map { Self.sent($0, by: queue) } == [.change(ChangeEvent(entity: .countries, reload: true)), .keepAlive])
        queue.push(.keepAlive)
        let second = await iterator.next()
        #expect(second.map { Self.sent($0, by: queue) } == [.keepAlive])
    }
}
#endif
