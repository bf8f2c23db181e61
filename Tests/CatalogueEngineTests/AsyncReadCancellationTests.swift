import CatalogueKit
import Synchronization
import Testing

/// The `async` reads of `Catalogue` stop when their task is cancelled, and throw
/// `CancellationError`; on every engine.
@Suite("Cancelled async reads")
struct AsyncReadCancellationTests {
    /// 3,000 products named "Widget 1"….
    func catalogue(_ engine: EngineUnderTest) throws -> Catalogue {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            _ = try db.upsert(contentsOf: (1...3_000).map { Product(name: "Widget \($0)", type: "part") })
        }
        return catalogue
    }

    // Ten minutes: the limit catches a read that is never stopped (its body would count forever),
    // and with every suite in one process a test can wait minutes for a thread before it starts.
    @Test(
        "A read whose task is cancelled stops (here a body that counts forever) and throws CancellationError; the catalogue reads on",
        .timeLimit(.minutes(10)), arguments: EngineUnderTest.all)
    func cancelledWhileReading(engine: EngineUnderTest) async throws {
        let catalogue = try catalogue(engine)
        let request = CatalogueSearch.products(matching: "dget", mode: .contains)
        let (counting, countingStarted) = AsyncStream.makeStream(of: Int.self)
        let reader = Task {
            try await catalogue.read { db in
                // Never ends unless the read is stopped: each count is a statement.
                var rounds = 0
                while true {
                    let count = try db.fetchCount(request)
                    rounds += 1
                    if rounds == 1 { countingStarted.yield(count) }
                }
            }
        }
        var firstCount: Int?
        for await count in counting {
            firstCount = count
            break
        }
        #expect(firstCount == 3_000)
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(try await catalogue.fetchCount(request) == 3_000)
        #expect(try await catalogue.search(request, limit: 5).records.count == 5)
        // The stopped read's transaction ended: every connection sees the next commit.
        try await catalogue.write { db in try db.insert(Product(name: "Widget 3001", type: "part")) }
        for _ in 1...10 {
            #expect(try await catalogue.read { db in try db.fetchCount(request) } == 3_001)
        }
    }

    @Test("A task cancelled before it reads gets CancellationError, and its body never runs", arguments: EngineUnderTest.all)
    func cancelledBeforeReading(engine: EngineUnderTest) async throws {
        let catalogue = try catalogue(engine)
        let bodyRan = RanFlag()
        let reader = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await catalogue.read { db in
                bodyRan.set()
                return try db.fetchCount(CatalogueSearch.products(matching: "widget"))
            }
        }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        let ran = bodyRan.isSet
        #expect(!ran)
        let search = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await catalogue.search(CatalogueSearch.products(matching: "widget"), limit: 10)
        }
        search.cancel()
        await #expect(throws: CancellationError.self) { try await search.value }
    }

    @Test("A write is not stopped: it lands whole although its task is cancelled", arguments: EngineUnderTest.all)
    func writesRunToTheirEnd(engine: EngineUnderTest) async throws {
        let catalogue = try catalogue(engine)
        let writer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await catalogue.write { db in
                try db.upsert(contentsOf: (1...500).map { Product(name: "Gadget \($0)", type: "part") })
            }
        }
        _ = try await writer.value
        #expect(try await catalogue.fetchCount(CatalogueSearch.products(matching: "gadget")) == 500)
    }
}

/// Whether a body ran, set on the thread that ran it.
private final class RanFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
