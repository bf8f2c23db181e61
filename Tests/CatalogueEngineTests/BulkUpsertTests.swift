import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// `upsert(contentsOf:)` gives what one `upsert(_:)` a record gives, on every engine, however
/// the engine groups the records into statements (PostgreSQL: 500 to a statement, a key at
/// most once in each).
@Suite("Bulk upserts")
struct BulkUpsertTests {
    /// 1,300 products over about 300 natural keys, in an order that repeats keys within a few
    /// records and far apart: the same values again (unchanged), other values (updated), the
    /// type in another case (the same key: `type_key` is folded), a name in two Unicode forms
    /// (two keys), and new keys.
    static func records() -> [Product] {
        var generator = SplitMix64(seed: 12)
        // "Été" twice: composed, and decomposed (equal as Swift strings, two keys to the database).
        let names = (0..<100).map { "Lamp \($0)" } + ["\u{C9}t\u{E9}", "E\u{301}te\u{301}", "Ete"]
        let types = ["light", "Light", "LIGHT", "shade", "Ömlaut"]
        return (0..<1_300).map { _ in
            Product(
                name: names.randomElement(using: &generator)!, type: types.randomElement(using: &generator)!,
                year: [nil, 1999, 2024].randomElement(using: &generator)!, price: [nil, 9.5].randomElement(using: &generator)!)
        }
    }

    @Test("Counts and stored rows equal one upsert a record, across statements, later records of a key winning",
          arguments: EngineUnderTest.all)
    func sameAsOneByOne(engine: EngineUnderTest) throws {
        let records = Self.records()
        let stored = Array(records.prefix(40))
        let bulk = try engine.makeCatalogue(seed: false)
        let single = try engine.makeCatalogue(seed: false)
        for catalogue in [bulk, single] {
            try catalogue.write { db in for record in stored { _ = try db.upsert(record) } }
        }

        let bulkCounts = try bulk.write { db in try db.upsert(contentsOf: records) }
        let singleCounts = try single.write { db in
            var counts = UpsertCounts()
            for record in records { counts.record(try db.upsert(record).outcome) }
            return counts
        }

        #expect(bulkCounts == singleCounts)
        #expect(bulkCounts.total == records.count)
        #expect(bulkCounts.inserted > 0 && bulkCounts.updated > 0 && bulkCounts.unchanged > 0, "\(bulkCounts)")
        func rows(_ catalogue: Catalogue) throws -> [String] {
            try catalogue.read { db in try db.fetch(FetchRequest<Product>(sortDescriptors: [FetchSortDescriptor("id")])) }
                .map { "\($0.name)|\($0.type)|\($0.year.map(String.init) ?? "-")|\($0.price.map { "\($0)" } ?? "-")" }
        }
        #expect(try rows(bulk) == rows(single))
        // Each key's last record won.
        let lamp = try #require(try bulk.read { db in
            try db.fetchFirst(FetchRequest<Product>(predicate: .equals("name", "Lamp 7"), sortDescriptors: [FetchSortDescriptor("id")]))
        })
        let lastLamp = try #require(records.last { $0.name == "Lamp 7" && Folding.fold($0.type) == Folding.fold(lamp.type) })
        #expect(lamp.year == lastLamp.year && lamp.price == lastLamp.price)
    }

    @Test("A write that throws after a bulk upsert keeps none of its records; written again, they are unchanged",
          arguments: EngineUnderTest.all)
    func allOrNothing(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let good = (0..<700).map { Product(name: "Good \($0)", type: "kit") }
        #expect(throws: (any Error).self) {
            try catalogue.write { db in
                _ = try db.upsert(contentsOf: good)
                throw CancellationError()
            }
        }
        #expect(try catalogue.count(Product.self) == 0)
        #expect(try catalogue.write { db in try db.upsert(contentsOf: good) } == UpsertCounts(inserted: 700))
        #expect(try catalogue.write { db in try db.upsert(contentsOf: good) } == UpsertCounts(unchanged: 700))
        #expect(try catalogue.count(Product.self) == 700)
    }
}
