import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// `upsert(contentsOf:)` gives what one `upsert(_:)` a record gives, on every engine, however
/// the engine writes the records: an array of 1,000 or more on PostgreSQL by COPY into a
/// staging table merged by one statement, a sequence of unknown length 500 to a statement, a
/// key at most once in each.
@Suite("Bulk upserts")
struct BulkUpsertTests {
    /// How a test hands records to `upsert(contentsOf:)`: as an array, whose length the engine
    /// knows (from 1,000 records on, PostgreSQL stages them by COPY and SQLite writes them as an
    /// import does), or as a sequence that gives no length (`underestimatedCount` 0: PostgreSQL
    /// writes statements of up to 500 records).
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        case array
        case unsized

        var testDescription: String { rawValue }

        func upsert<R: Record>(_ records: [R], in db: any CatalogueWriting) throws -> UpsertCounts {
            switch self {
            case .array:
                try db.upsert(contentsOf: records)
            case .unsized:
                try db.upsert(contentsOf: sequence(state: records.makeIterator()) { $0.next() })
            }
        }
    }

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

    @Test("Counts and stored rows (in id order) equal one upsert a record, later records of a key winning",
          arguments: EngineUnderTest.all, Form.allCases)
    func sameAsOneByOne(engine: EngineUnderTest, form: Form) throws {
        let records = Self.records()
        let stored = Array(records.prefix(40))
        let bulk = try engine.makeCatalogue(seed: false)
        let single = try engine.makeCatalogue(seed: false)
        for catalogue in [bulk, single] {
            try catalogue.write { db in for record in stored { _ = try db.upsert(record) } }
        }

        let bulkCounts = try bulk.write { db in try form.upsert(records, in: db) }
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
          arguments: EngineUnderTest.all, Form.allCases)
    func allOrNothing(engine: EngineUnderTest, form: Form) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let good = (0..<1_200).map { Product(name: "Good \($0)", type: "kit") }
        #expect(throws: (any Error).self) {
            try catalogue.write { db in
                _ = try form.upsert(good, in: db)
                throw CancellationError()
            }
        }
        #expect(try catalogue.count(Product.self) == 0)
        #expect(try catalogue.write { db in try form.upsert(good, in: db) } == UpsertCounts(inserted: 1_200))
        #expect(try catalogue.write { db in try form.upsert(good, in: db) } == UpsertCounts(unchanged: 1_200))
        #expect(try catalogue.count(Product.self) == 1_200)
    }

    @Test("Two bulk upserts in one write: each counted; the change published names the records they inserted and updated",
          .timeLimit(.minutes(5)), arguments: EngineUnderTest.all, Form.allCases)
    func publishedChange(engine: EngineUnderTest, form: Form) async throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let stored = (0..<100).map { Product(name: "Stored \($0)", type: "kit", price: 1) }
        _ = try await catalogue.write { db in try db.upsert(contentsOf: stored) }
        var changes = catalogue.changes(pollingInterval: .milliseconds(20)).makeAsyncIterator()

        let added = (0..<1_200).map { Product(name: "Added \($0)", type: "kit") }
        // Three stored records with another price, the other 97 as they are, 1,000 new ones.
        let again = stored.enumerated().map { index, product in
            var product = product
            if index % 40 == 0 { product.price = 2 }
            return product
        } + (0..<1_000).map { Product(name: "More \($0)", type: "kit") }
        let counts = try await catalogue.write { db in (try form.upsert(added, in: db), try form.upsert(again, in: db)) }
        #expect(counts.0 == UpsertCounts(inserted: 1_200))
        #expect(counts.1 == UpsertCounts(inserted: 1_000, updated: 3, unchanged: 97))

        let written = try await catalogue.read { db in
            try db.fetch(FetchRequest<Product>(sortDescriptors: [FetchSortDescriptor("id")]))
        }.filter { !$0.name.hasPrefix("Stored") || $0.price == 2 }
        #expect(written.count == 2_203)
        // A write after it: had the bulk write published nothing, this one's change comes first.
        _ = try await catalogue.write { db in try db.insert(Product(name: "Marker", type: "kit")) }
        var change = try #require(try await changes.next())
        while change.origin != .thisCatalogue {
            change = try #require(try await changes.next())
        }
        #expect(change.changedIDs(of: Product.self) == Set(written.compactMap(\.id)))
    }

    @Test("Over 10,000 records written: the change published names their table, not each id",
          .timeLimit(.minutes(5)), arguments: EngineUnderTest.all)
    func publishedChangeOfManyRows(engine: EngineUnderTest) async throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        var changes = catalogue.changes(pollingInterval: .milliseconds(20)).makeAsyncIterator()
        let records = (0..<10_001).map { Product(name: "Many \($0)", type: "kit") }
        #expect(try await catalogue.write { db in try db.upsert(contentsOf: records) } == UpsertCounts(inserted: 10_001))
        // A write after it: had the bulk write published nothing, this one's change comes first.
        _ = try await catalogue.write { db in try db.insert(Product(name: "Marker", type: "kit")) }
        var change = try #require(try await changes.next())
        while change.origin != .thisCatalogue {
            change = try #require(try await changes.next())
        }
        #expect(change.affects(Product.self))
        #expect(change.changedIDs(of: Product.self) == nil, "\(change.rowIDs.mapValues(\.count))")
    }

    @Test("Text PostgreSQL cannot hold (U+0000) fails a bulk upsert whole, in either form, as it fails one upsert",
          arguments: EngineUnderTest.all, Form.allCases)
    func unstorableText(engine: EngineUnderTest, form: Form) throws {
        var records = (0..<1_200).map { Product(name: "Plain \($0)", type: "kit") }
        records[700] = Product(name: "Null\u{0}byte", type: "kit")
        let single = try engine.makeCatalogue(seed: false)
        let singleFailed = (try? single.write { db in try db.upsert(records[700]) }) == nil
        let bulk = try engine.makeCatalogue(seed: false)
        let bulkFailed = (try? bulk.write { db in try form.upsert(records, in: db) }) == nil
        #expect(bulkFailed == singleFailed)
        #expect(bulkFailed == (engine == .postgres))
        #expect(try bulk.count(Product.self) == (bulkFailed ? 0 : 1_200))
        // The catalogue goes on: the connection left no COPY or transaction half-done.
        records[700].name = "Null byte"
        #expect(try bulk.write { db in try form.upsert(records, in: db) }.total == 1_200)
    }
}
