#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// Totals reused until the catalogue changes, and never across a change the server has heard of.
@Suite("Result cache")
struct ResultCacheTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }

    @Test("Disabled: every value is computed; enabled: reused until invalidated")
    func reuse() {
        let cache = ResultCache()
        let counter = Counter()
        #expect(cache.value(for: "k") { counter.next() } == 1)
        #expect(cache.value(for: "k") { counter.next() } == 2)
        cache.setEnabled(true)
        #expect(cache.value(for: "k") { counter.next() } == 3)
        #expect(cache.value(for: "k") { counter.next() } == 3)
        #expect(cache.value(for: "other") { counter.next() } == 4)
        cache.invalidate()
        #expect(cache.count == 0)
        #expect(cache.value(for: "k") { counter.next() } == 5)
        cache.setEnabled(false)
        #expect(cache.value(for: "k") { counter.next() } == 6)
    }

    @Test("A value computed while the catalogue changed is not kept")
    func raceWithAChange() {
        let cache = ResultCache()
        cache.setEnabled(true)
        #expect(cache.value(for: "k") { () -> Int in
            cache.invalidate()   // a change arrives while counting
            return 1
        } == 1)
        #expect(cache.count == 0)
        #expect(cache.value(for: "k") { 2 } == 2)
    }

    @Test("The cache starts over when full")
    func capacity() {
        let cache = ResultCache(capacity: 3)
        cache.setEnabled(true)
        for key in 0..<3 { _ = cache.value(for: key) { key } }
        #expect(cache.count == 3)
        _ = cache.value(for: 99) { 99 }
        #expect(cache.count == 1)
    }

    @Test("Counts are keyed by predicate, not by order or window")
    func countKeys() throws {
        let catalogue = try Catalogue(path: ":memory:")
        let cache = ResultCache()
        cache.setEnabled(true)
        var request = CatalogueSearch.countries(matching: "co")
        let total = try catalogue.read { db in try cache.count(request, in: db) }
        request.fetchLimit = 5
        request.fetchOffset = 3
        request.sortDescriptors = [FetchSortDescriptor("capital")]
        #expect(cache.cachedCount(request) == total)
        #expect(cache.cachedCount(CatalogueSearch.countries(matching: "c")) == nil)
    }

    @Test("Totals follow an import through the server at once")
    func totalsFollowImports() async throws {
        let fixture = try ServerFixture()
        @Sendable func total(_ client: TestClient) async throws -> Int {
            try await client.get("/api/products?q=the&limit=1").decode(SearchBody<Product>.self).total
        }
        try await fixture.test { client in
            let first = try await total(client)
            #expect(try await total(client) == first)
            #expect(try await client.post("/api/products/import", "name,type\nTheremin,music\nThe Kazoo,music\n").status == .ok)
            #expect(try await total(client) == first + 2)
            let failed = try await client.post("/api/products/import", "name,type\nThe Ocarina,music\nBad,\n")
            #expect(failed.status == .badRequest)
            #expect(try await total(client) == first + 2)
        }
    }
    // A write by another process: ServeCommandTests.writeByAnotherProcess (a separate server
    // process, whose change poll no other test can hold up).
}
#endif
