import CatalogueKit
import Foundation
@testable import CatalogueSQLite
import Testing

/// A `CONTAINS[cd]` page read through the key ranges (`Connection.fetchPageThroughKeyRanges`):
/// exactly the rows and order the ordered scan gives, for random names and texts, after writes
/// that leave stale keys in the ranges; and the requests it leaves to the other plans.
@Suite("CONTAINS pages through the key ranges")
struct KeyRangePagesTests {
    /// The ids of `request`'s page through the key ranges (nil when they do not serve it), and
    /// through the plain scan.
    static func pages(_ request: FetchRequest<Product>, in catalogue: Catalogue) throws -> (ranges: [Int64]?, scan: [Int64]) {
        try catalogue.sqlite!.database.read { db in
            let ranges = try db.fetchPageThroughKeyRanges(
                request, select: { try $0.select(Product.schema.qualifiedID, in: SQLiteDialect()) }, { $0.statement.int64(at: 0) })
            let scan = try request.select(Product.schema.qualifiedID, in: SQLiteDialect())
            return (ranges, try db.fetchAll(scan.sql, StatementArguments(scan.arguments)) { $0.statement.int64(at: 0) })
        }
    }

    @Test("Random names and texts, after renames, deletes and inserts: each page equals the scan's")
    func pagesEqualScan() throws {
        let seed = SearchPropertyTests.seed ^ 0x5A6E_3C01
        var generator = SplitMix64(seed: seed)
        let (catalogue, products) = try SearchPropertyTests.makeCatalogue(using: &generator)
        // Enough names for a few dozen ranges (a bulk write builds the index again).
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<2_000).map {
                Product(name: SearchPropertyTests.randomText(length: 3...14, using: &generator) + " \($0)", type: "bulk")
            })
        }
        // Stale keys: a third renamed, a tenth deleted, and new names written one by one.
        try catalogue.write { db in
            for product in products.shuffled(using: &generator).prefix(100) {
                var renamed = product
                renamed.name = SearchPropertyTests.randomText(length: 3...14, using: &generator) + "\(product.id!)"
                try db.update(renamed)
            }
            for product in products.shuffled(using: &generator).prefix(30) {
                _ = try db.delete(Product.self, id: product.id!)
            }
        }
        for _ in 0..<3 {
            try catalogue.write { db in
                for index in 0..<40 {
                    try db.upsert(Product(name: SearchPropertyTests.randomText(length: 3...14, using: &generator) + " \(index)", type: "random"))
                }
            }
        }
        let current = try catalogue.records(FetchRequest<Product>(sortDescriptors: .byName))
        var served = 0
        for text in SearchPropertyTests.needles(from: current, using: &generator) {
            for (limit, offset) in [(1, 0), (5, 3), (50, 0)] {
                var request = CatalogueSearch.products(matching: text, mode: .contains)
                request.fetchLimit = limit
                request.fetchOffset = offset
                let (ranges, scan) = try Self.pages(request, in: catalogue)
                let key = Folding.fold(CatalogueSearch.normalizedText(text))
                if key.unicodeScalars.count >= 3, !key.unicodeScalars.contains("\0") {
                    #expect(ranges == scan, "seed \(seed): contains \(String(reflecting: text)), limit \(limit), offset \(offset)")
                    served += 1
                } else {
                    #expect(ranges == nil, "seed \(seed): \(String(reflecting: text)) has no trigram")
                }
            }
        }
        #expect(served > 200, "seed \(seed): too few texts of three characters or more")
    }

    @Test("A type scope, terms and an app's AND of two texts narrow the same page")
    func conjunctions() throws {
        let catalogue = try seededCatalogue()
        var requests: [FetchRequest<Product>] = [
            CatalogueSearch.products(matching: "pho", scope: .type("device"), mode: .contains),
            CatalogueSearch.products(matching: "ipho 3g", mode: .terms),
            FetchRequest(
                predicate: .contains("name", "ip", options: .caseAndDiacriticInsensitive)
                    && .contains("name", "PAD", options: .caseAndDiacriticInsensitive),
                sortDescriptors: .byName),
        ]
        for index in requests.indices { requests[index].fetchLimit = 10 }
        for request in requests {
            let (ranges, scan) = try Self.pages(request, in: catalogue)
            #expect(ranges == scan, "\(request.predicate)")
            #expect(!scan.isEmpty, "\(request.predicate)")
        }
    }

    @Test("Left to the other plans: no limit, another order, a text under three characters, OR, a page past 1,000 rows")
    func notServed() throws {
        let catalogue = try seededCatalogue()
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        var unlimited = CatalogueSearch.products(matching: "pad", mode: .contains)
        unlimited.fetchLimit = nil
        var byPrice = FetchRequest<Product>(predicate: .contains("name", "pad", options: cd), sortDescriptors: [.init("price")])
        byPrice.fetchLimit = 5
        var descending = FetchRequest<Product>(
            predicate: .contains("name", "pad", options: cd), sortDescriptors: [.init("name", ascending: false, options: cd)])
        descending.fetchLimit = 5
        var short = CatalogueSearch.products(matching: "pa", mode: .contains)
        short.fetchLimit = 5
        var either = FetchRequest<Product>(
            predicate: .contains("name", "pad", options: cd) || .contains("name", "pod", options: cd), sortDescriptors: .byName)
        either.fetchLimit = 5
        var deep = CatalogueSearch.products(matching: "pad", mode: .contains)
        deep.fetchLimit = 50
        deep.fetchOffset = 960
        for request in [unlimited, byPrice, descending, short, either, deep] {
            #expect(try Self.pages(request, in: catalogue).ranges == nil, "\(request.predicate), \(request.sortDescriptors)")
        }
    }

    @Test("A text whose trigrams meet in many ranges but whose matches are rare: the ranges give up, the page is still right")
    func readLimit() throws {
        let catalogue = try emptyCatalogue()
        // Each range of 64 names holds "lamp" in one name and "2001" in another, never together.
        let ranges = Connection.keyRangeReadLimit + 20
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<(ranges * SQLiteKeyRangeIndex.keysPerRange)).map { index in
                let label = index % SQLiteKeyRangeIndex.keysPerRange == 0 ? "lamp" : index % SQLiteKeyRangeIndex.keysPerRange == 1 ? "2001" : "item"
                return Product(name: String(format: "%06d %@", index, label), type: "light")
            } + [Product(name: "999999 lamp 2001", type: "light")])
        }
        var request = FetchRequest<Product>(
            predicate: .contains("name", "lamp", options: .caseAndDiacriticInsensitive)
                && .contains("name", "2001", options: .caseAndDiacriticInsensitive),
            sortDescriptors: .byName)
        request.fetchLimit = 50
        #expect(try Self.pages(request, in: catalogue).ranges == nil)
        #expect(try catalogue.records(request).map(\.name) == ["999999 lamp 2001"])
        // A text found in its first ranges is served.
        request.predicate = .contains("name", "lamp", options: .caseAndDiacriticInsensitive)
        let (served, scan) = try Self.pages(request, in: catalogue)
        #expect(served == scan && scan.count == 50)
    }
}

extension KeyRangePagesTests {
    @Test("An app's record type gets the key ranges from SQLiteSearchSupport: its pages read them, its writes keep them")
    func appRecordType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("streets.sqlite"), appMigrations: [Street.migration])
        let ranges = SQLiteKeyRangeIndex(schema: Street.schema, keyColumn: "name_key")
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<300).map { Street(name: "Rue \($0 * 7 % 300) de l'Église") })
        }
        let (rangeCount, grown): (Int, Int) = try catalogue.sqlite!.database.read { db in
            (try db.scalar("SELECT count(*) FROM \(ranges.rangeTable)") ?? -1,
             try db.scalar("SELECT count(*) FROM \(ranges.rangeTable) WHERE appended >= ?", [SQLiteKeyRangeIndex.keysPerRange]) ?? -1)
        }
        #expect(rangeCount > 1 && grown == 0, "the writes' grown range was split: \(rangeCount) ranges")
        var request = FetchRequest<Street>(
            predicate: .contains("name", "EGLISE", options: .caseAndDiacriticInsensitive), sortDescriptors: .byName)
        request.fetchLimit = 20
        request.fetchOffset = 100
        let (served, scan) = try catalogue.sqlite!.database.read { db in
            let served = try db.fetchPageThroughKeyRanges(
                request, select: { try $0.select(Street.schema.qualifiedID, in: SQLiteDialect()) }, { $0.statement.int64(at: 0) })
            let sql = try request.select(Street.schema.qualifiedID, in: SQLiteDialect())
            return (served, try db.fetchAll(sql.sql, StatementArguments(sql.arguments)) { $0.statement.int64(at: 0) })
        }
        #expect(served == scan && scan.count == 20)
        #expect(try catalogue.fetch(request).compactMap(\.id) == scan)
    }
}
