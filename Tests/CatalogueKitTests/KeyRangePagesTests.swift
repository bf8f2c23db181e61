import CatalogueKit
import CatalogueTestSupport
import Foundation
@testable import CatalogueSQLite
import Testing

/// A `CONTAINS[cd]` page read through the key ranges (`Connection.fetchPageThroughKeyRanges`):
/// exactly the rows and order the ordered scan gives, for random names and texts, after writes
/// that leave stale keys in the ranges; and the requests it leaves to the other plans.
@Suite("CONTAINS pages through the key ranges")
struct KeyRangePagesTests {
    /// The ids of `request`'s page through the key ranges (nil when they do not serve it), and
    /// through the plain scan. A text of one or two characters first scans the keys of
    /// `shortTextScan` ranges.
    static func pages(
        _ request: FetchRequest<Product>, in catalogue: Catalogue, shortTextScan: Int = Connection.keyRangeShortTextScan
    ) throws -> (ranges: [Int64]?, scan: [Int64]) {
        try catalogue.sqlite!.database.read { db in
            let ranges = try db.fetchPageThroughKeyRanges(
                request, select: { try $0.select(Product.schema.qualifiedID, in: SQLiteDialect()) }, shortTextScan: shortTextScan,
                { $0.statement.int64(at: 0) })
            let scan = try request.select(Product.schema.qualifiedID, in: SQLiteDialect())
            return (ranges, try db.fetchAll(scan.sql, StatementArguments(scan.arguments)) { $0.statement.int64(at: 0) })
        }
    }

    /// `request`'s count capped at `limit`, through the key ranges (nil when they do not serve
    /// it) and by SQL.
    static func counts(_ request: FetchRequest<Product>, stoppingAfter limit: Int, in catalogue: Catalogue) throws -> (ranges: Int?, sql: Int) {
        try catalogue.sqlite!.database.read { db in
            let sql = try request.countSQL(in: SQLiteDialect(), stoppingAfter: limit)
            return (try db.countThroughKeyRanges(request, stoppingAfter: limit), try db.scalar(sql.sql, StatementArguments(sql.arguments)) ?? -1)
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
        var shortServed = 0
        var counted = 0
        // Texts of one or two characters: single letters and pairs of the names, which the
        // needles below rarely are.
        let shortTexts = current.shuffled(using: &generator).prefix(40).flatMap { product -> [String] in
            let scalars = Array(Folding.fold(product.name).unicodeScalars)
            let start = Int.random(in: 0..<scalars.count, using: &generator)
            return [String(String.UnicodeScalarView(scalars[start...start])),
                    String(String.UnicodeScalarView(scalars[start..<min(start + 2, scalars.count)]))]
        }
        for text in SearchPropertyTests.needles(from: current, using: &generator) + shortTexts {
            let key = Folding.fold(CatalogueSearch.normalizedText(text))
            for cap in [7, 1_001] {
                let (ranges, sql) = try Self.counts(CatalogueSearch.products(matching: text, mode: .contains), stoppingAfter: cap, in: catalogue)
                #expect(ranges == nil || ranges == sql, "seed \(seed): count of \(String(reflecting: text)) up to \(cap)")
                if ranges != nil { counted += 1 }
            }
            for (limit, offset, shortTextScan) in [(1, 0, 0), (5, 3, 2), (50, 0, 0), (50, 0, Connection.keyRangeShortTextScan)] {
                var request = CatalogueSearch.products(matching: text, mode: .contains)
                request.fetchLimit = limit
                request.fetchOffset = offset
                let (ranges, scan) = try Self.pages(request, in: catalogue, shortTextScan: shortTextScan)
                let context: Comment = "seed \(seed): contains \(String(reflecting: text)), limit \(limit), offset \(offset), scan \(shortTextScan)"
                if key.unicodeScalars.count >= 3, !key.unicodeScalars.contains("\0") {
                    #expect(ranges == scan, context)
                    served += 1
                } else if SQLiteKeyRangeIndex.isShortText(key) {
                    // Served unless the text starts too many trigrams (a common letter).
                    #expect(ranges == nil || ranges == scan, context)
                    if ranges != nil { shortServed += 1 }
                } else {
                    #expect(ranges == nil, context)
                }
            }
        }
        #expect(served > 200, "seed \(seed): too few texts of three characters or more")
        #expect(shortServed > 100, "seed \(seed): too few texts of one or two characters")
        #expect(counted > 200, "seed \(seed): too few counts through the ranges")
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

    @Test("Left to the other plans: no limit, another order, OR, a page past 1,000 rows")
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
        var either = FetchRequest<Product>(
            predicate: .contains("name", "pad", options: cd) || .contains("name", "pod", options: cd), sortDescriptors: .byName)
        either.fetchLimit = 5
        var deep = CatalogueSearch.products(matching: "pad", mode: .contains)
        deep.fetchLimit = 50
        deep.fetchOffset = 960
        for request in [unlimited, byPrice, descending, either, deep] {
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
    /// A catalogue of `ranges` ranges of "item" names, and after them, names holding "mo"
    /// (which no item does).
    static func catalogueWithLateMatches(ranges: Int) throws -> Catalogue {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<(ranges * SQLiteKeyRangeIndex.keysPerRange)).map {
                Product(name: String(format: "item %06d", $0), type: "t")
            } + (0..<80).map { Product(name: "Montréal \($0)", type: "t") } + [Product(name: "Zoo motex", type: "t")])
        }
        return catalogue
    }

    @Test("One or two characters: the first ranges' keys, then the ranges holding a trigram that starts with the text")
    func shortTexts() throws {
        let catalogue = try Self.catalogueWithLateMatches(ranges: Connection.keyRangeShortTextScan + 20)
        for (text, limit, offset) in [("mo", 50, 0), ("mo", 5, 78), ("m", 50, 0), ("é", 10, 0), ("qz", 10, 0), ("i", 10, 0), ("o 1", 3, 0)] {
            var request = CatalogueSearch.products(matching: text, mode: .contains)
            request.fetchLimit = limit
            request.fetchOffset = offset
            let (ranges, scan) = try Self.pages(request, in: catalogue)
            #expect(ranges == scan, "\(text), limit \(limit), offset \(offset)")
            #expect(try catalogue.fetchIDs(request) == scan)
        }
        // Counts capped at 1,001 read the same ranges.
        for text in ["mo", "qz", "m", "o 1"] {
            let (ranges, sql) = try Self.counts(CatalogueSearch.products(matching: text, mode: .contains), stoppingAfter: 1_001, in: catalogue)
            #expect(ranges == sql && ranges != nil, "\(text)")
            #expect(try catalogue.read { db in try db.fetchCount(CatalogueSearch.products(matching: text, mode: .contains), stoppingAfter: 1_001) } == sql)
        }
        var montreal = CatalogueSearch.products(matching: "Mo", mode: .contains)
        montreal.fetchLimit = 50
        #expect(try catalogue.records(montreal).first?.name == "Montréal 0")
        // A word of the terms mode and a type scope narrow it as they narrow the scan.
        var terms = CatalogueSearch.products(matching: "mo 7", mode: .terms)
        terms.fetchLimit = 20
        let (termRanges, termScan) = try Self.pages(terms, in: catalogue)
        #expect(termRanges == termScan && termScan.count == 17)
        // The last name is found: every character of a document's last key starts a trigram.
        var last = CatalogueSearch.products(matching: "x", mode: .contains)
        last.fetchLimit = 5
        #expect(try catalogue.records(last).map(\.name) == ["Zoo motex"])
    }

    @Test("A text that starts too many trigrams, or an index without its term table, is left to the scan")
    func shortTextsNotServed() throws {
        let catalogue = try emptyCatalogue()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        // "x" followed by 26 × 26 pairs, after enough names that it is not in the first ranges.
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<(Connection.keyRangeShortTextScan + 4) * SQLiteKeyRangeIndex.keysPerRange).map {
                Product(name: String(format: "a %06d", $0), type: "t")
            } + letters.flatMap { first in letters.map { Product(name: "z x\(first)\($0)", type: "t") } })
        }
        var common = CatalogueSearch.products(matching: "x", mode: .contains)
        common.fetchLimit = 10
        #expect(try Self.pages(common, in: catalogue).ranges == nil)
        #expect(try catalogue.records(common).map(\.name).first == "z xaa")
        var rare = CatalogueSearch.products(matching: "xq", mode: .contains)
        rare.fetchLimit = 10
        let (ranges, scan) = try Self.pages(rare, in: catalogue)
        #expect(ranges == scan && scan.count == 10)
        // An index built before its term table (an app's, from an earlier version): its
        // documents may lack the newlines that short texts need.
        let index = SQLiteKeyRangeIndex(schema: Product.schema, keyColumn: "name_key")
        try catalogue.sqlite!.database.write { db in try db.execute("DROP TABLE \(index.termTable)") }
        #expect(try Self.pages(rare, in: catalogue).ranges == nil)
        #expect(try catalogue.fetchIDs(rare) == scan)
    }

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
        // Two characters, past the first ranges: through the term table.
        request.predicate = .contains("name", "9 ", options: .caseAndDiacriticInsensitive)
        request.fetchOffset = 0
        let (shortServed, shortScan) = try catalogue.sqlite!.database.read { db in
            let served = try db.fetchPageThroughKeyRanges(
                request, select: { try $0.select(Street.schema.qualifiedID, in: SQLiteDialect()) }, shortTextScan: 1,
                { $0.statement.int64(at: 0) })
            let sql = try request.select(Street.schema.qualifiedID, in: SQLiteDialect())
            return (served, try db.fetchAll(sql.sql, StatementArguments(sql.arguments)) { $0.statement.int64(at: 0) })
        }
        #expect(shortServed == shortScan && shortScan.count == 20)
    }
}
