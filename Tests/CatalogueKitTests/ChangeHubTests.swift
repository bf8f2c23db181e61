import Testing
@testable import CatalogueCore

/// The part of change observation every engine shares: each stream gets every published change
/// and what its watcher reports, and a stream that ends leaves nothing behind in the hub.
///
/// The time limit is five minutes: these tests wait on the cooperative pool, which the other
/// suites' blocking tests share (see `ChangeSetTests.asyncSequence`); a hang still ends the run.
@Suite("Change hub", .timeLimit(.minutes(5)))
struct ChangeHubTests {
    /// A hub alive until the process exits, as an engine's is in `catalogue serve`. Under
    /// `--sanitize=address` this is what catches a weak reference to the hub in a stream's
    /// termination handler: once the stream ends, the hub's side table would be reachable only
    /// through its encoded reference count, and LeakSanitizer fails the run at exit.
    static let longLivedHub = ChangeHub()

    static func change(_ id: Int64) -> DatabaseChange {
        DatabaseChange(tables: ["product"], rowIDs: ["product": [id]], origin: .thisCatalogue)
    }

    @Test("A stream gets published changes and its watcher's, in order")
    func publishedAndWatched() async throws {
        let hub = ChangeHub()
        let stream = hub.stream(watchingElsewhere: { yield in
            yield(DatabaseChange(tables: ["country"], origin: .elsewhere))
        })
        var iterator = stream.makeAsyncIterator()
        let fromWatcher = try await iterator.next()
        #expect(fromWatcher?.tables == ["country"])
        hub.publish(Self.change(7))
        hub.publish(Self.change(8))
        #expect(try await iterator.next()?.rowIDs == ["product": [7]])
        #expect(try await iterator.next()?.rowIDs == ["product": [8]])
    }

    @Test("A stream whose consumer is cancelled unsubscribes and cancels its watcher")
    func cancelledConsumerUnsubscribes() async throws {
        let hub = Self.longLivedHub
        let watcherEnded = AsyncStream<Void>.makeStream()
        let stream = hub.stream(watchingElsewhere: { _ in
            defer { watcherEnded.continuation.yield() }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        })
        #expect(hub.hasSubscribers)
        let consumer = Task {
            var received = 0
            for try await _ in stream { received += 1 }
            return received
        }
        hub.publish(Self.change(1))
        consumer.cancel()
        _ = try await consumer.value
        var ended = watcherEnded.stream.makeAsyncIterator()
        _ = await ended.next()
        #expect(!hub.hasSubscribers)
    }

    @Test("A stream dropped unread unsubscribes, and the hub does not keep itself alive")
    func droppedStreamUnsubscribes() async throws {
        weak var weakHub: ChangeHub?
        do {
            let hub = ChangeHub()
            weakHub = hub
            do {
                let stream = hub.stream(watchingElsewhere: { _ in })
                #expect(hub.hasSubscribers)
                withExtendedLifetime(stream) {}
            }
            #expect(!hub.hasSubscribers)
        }
        #expect(weakHub == nil)
    }

    @Test("A watcher's error ends the stream with that error")
    func watcherErrorEndsStream() async throws {
        struct WatcherFailed: Error {}
        let hub = ChangeHub()
        let stream = hub.stream(watchingElsewhere: { _ in throw WatcherFailed() })
        await #expect(throws: WatcherFailed.self) {
            for try await _ in stream {}
        }
    }
}
