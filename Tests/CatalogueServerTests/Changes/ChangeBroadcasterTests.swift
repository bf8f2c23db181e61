#if Server
import CatalogueKit
import Foundation
import Testing
@testable import CatalogueServer

/// The broadcaster says when it watches: a change stream sends `ready` only then, so a row
/// committed after `ready` is reported as inserted (before, the broadcaster could note the
/// newest rows after that commit and report the row as updated).
@Suite("Change broadcaster")
struct ChangeBroadcasterTests {
    /// Events of one entity, as a stream's subscriber receives them.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [ChangeEvent] = []

        func append(_ event: ChangeEvent) { lock.withLock { events.append(event) } }
        var all: [ChangeEvent] { lock.withLock { events } }
    }

    @Test("Not running: waitUntilWatching gives up at its limit; running: it returns, and a row written after it is inserted")
    func watching() async throws {
        let fixture = try ServerFixture()
        let broadcaster = ChangeBroadcaster(
            catalogue: fixture.catalogue, cache: ResultCache(), pollingInterval: .milliseconds(20), logger: .init(label: "test"))
        let clock = ContinuousClock()
        let waited = try await clock.measure { try await broadcaster.waitUntilWatching(limit: .milliseconds(100)) }
        #expect(waited >= .milliseconds(100), "it is not watching before run()")

        let received = Received()
        let subscription = broadcaster.subscribe(to: .products) { received.append($0) }
        defer { subscription.cancel() }
        let running = Task { try await broadcaster.run() }
        defer { running.cancel() }
        try await broadcaster.waitUntilWatching(limit: .seconds(60))
        let kazoo = try await fixture.catalogue.write { db in try db.insert(Product(name: "Kazoo", type: "music")) }
        let deadline = clock.now + .seconds(60)
        while received.all.isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let event = try #require(received.all.first)
        #expect(event.inserted == [try #require(kazoo.id)])
        #expect(event.updated.isEmpty && !event.reload)
    }
}
#endif
