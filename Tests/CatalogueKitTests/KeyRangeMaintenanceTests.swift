import CatalogueKit
import CatalogueTestSupport
import Foundation
@testable import CatalogueSQLite
import Testing

/// The key range index stays whole through every kind of write: each key lies in a document of
/// the range that holds it, ranges come in key order, and none keeps more than a range's worth
/// of added keys once CatalogueKit's write is over.
@Suite("Key range index maintenance")
struct KeyRangeMaintenanceTests {
    static let ranges = SQLiteKeyRangeIndex(schema: Product.schema, keyColumn: "name_key")

    /// Checks the index against the table: range ids and first keys in the same order, the
    /// first range at '', every non-empty key found by its trigrams in its own range's
    /// documents, no range left grown. Returns how many ranges there are.
    @discardableResult
    static func checkIndex(of catalogue: Catalogue, _ comment: Comment? = nil) throws -> Int {
        let count = try catalogue.sqlite!.database.read { db in
            let byID: [String] = try db.fetchAll("SELECT first_key FROM \(ranges.rangeTable) ORDER BY id") { $0.statement.string(at: 0) }
            let byKey: [String] = try db.fetchAll("SELECT first_key FROM \(ranges.rangeTable) ORDER BY first_key") { $0.statement.string(at: 0) }
            #expect(byID == byKey, comment)
            #expect(byID.first == "", comment)
            let grown: Int = try db.scalar("SELECT count(*) FROM \(ranges.rangeTable) WHERE appended >= ?", [SQLiteKeyRangeIndex.keysPerRange]) ?? -1
            #expect(grown == 0, comment)
            let keys: [String] = try db.fetchAll("SELECT name_key FROM product WHERE length(name_key) >= 3") { $0.statement.string(at: 0) }
            var missing: [String] = []
            for key in keys {
                let range: Int64 = try db.scalar(
                    "SELECT id FROM \(ranges.rangeTable) WHERE first_key <= ? ORDER BY first_key DESC LIMIT 1", [key]) ?? -1
                guard let pattern = SQLiteTrigramIndex.matchPattern(for: key) else { continue }
                let found: Int = try db.scalar(
                    "SELECT count(*) FROM \(ranges.trigramTable) WHERE \(ranges.trigramTable) MATCH ? AND rowid >= ? AND rowid < ?",
                    [pattern, range << 32, (range + 1) << 32]) ?? 0
                if found == 0 { missing.append(key) }
            }
            #expect(missing.isEmpty, "not in their ranges: \(missing.prefix(5)) \(comment.map { "\($0)" } ?? "")")
            return byID.count
        }
        // FTS5's own check of its index against its documents (throws on a mismatch).
        try catalogue.sqlite!.database.write { db in
            try db.execute("INSERT INTO \(ranges.trigramTable) (\(ranges.trigramTable)) VALUES ('integrity-check')")
        }
        return count
    }

    static func name(_ index: Int, using generator: inout SplitMix64) -> String {
        SearchPropertyTests.randomText(length: 3...12, using: &generator) + " \(index)"
    }

    /// A new catalogue holding `count` products with random names, written in one bulk upsert.
    static func catalogue(holding count: Int, using generator: inout SplitMix64) throws -> Catalogue {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<count).map { Product(name: name($0, using: &generator), type: "t") })
        }
        return catalogue
    }

    /// An integer the SQL reads from `catalogue`.
    static func integer(_ sql: String, _ arguments: StatementArguments = [], in catalogue: Catalogue) throws -> Int {
        try catalogue.sqlite!.database.read { db in try db.scalar(sql, arguments) ?? -1 }
    }

    @Test("Writes one by one: grown ranges split at the end of each write, and every key stays in its range")
    func singleWrites() throws {
        let catalogue = try emptyCatalogue()
        #expect(try Self.checkIndex(of: catalogue) == 1)
        var generator = SplitMix64(seed: SearchPropertyTests.seed ^ 0x11)
        for round in 0..<12 {
            try catalogue.write { db in
                for index in 0..<50 { try db.upsert(Product(name: Self.name(round * 50 + index, using: &generator), type: "t")) }
            }
            try Self.checkIndex(of: catalogue, "round \(round)")
        }
        #expect(try Self.checkIndex(of: catalogue) >= 600 / (2 * SQLiteKeyRangeIndex.keysPerRange))
    }

    @Test("Only plainly named tables and keys are key range indexes: a trigger of another program, named like one, is left alone")
    func plainNamesOnly() throws {
        let catalogue = try emptyCatalogue()
        // Named so, the table and key would go into CatalogueKit's statements unquoted.
        let table = "odd; DELETE FROM product; --"
        try catalogue.sqlite!.database.inDatabase { db in
            try db.execute("""
                CREATE TABLE "\(table)" (id INTEGER PRIMARY KEY, k TEXT);
                CREATE TRIGGER "\(table)_k_range_after_insert" AFTER INSERT ON "\(table)" BEGIN SELECT 1; END;
                CREATE TRIGGER "plain_k x_range_after_insert" AFTER INSERT ON product BEGIN SELECT 1; END
                """)
            #expect(try db.keyRangeIndexes().map(\.recordTable) == ["product"])
        }
        try catalogue.write { db in try db.upsert(Product(name: "Lamp", type: "t")) }
        #expect(try Self.integer("SELECT count(*) FROM product", in: catalogue) == 1)
        try Self.checkIndex(of: catalogue)
    }

    @Test("Renames and deletes: the new keys are added, the old ones go when their range is rebuilt")
    func renamesAndDeletes() throws {
        var generator = SplitMix64(seed: SearchPropertyTests.seed ^ 0x22)
        let catalogue = try Self.catalogue(holding: 2_000, using: &generator)
        let products = try catalogue.records(FetchRequest<Product>(sortDescriptors: .byName))
        try Self.checkIndex(of: catalogue)
        try catalogue.write { db in
            for product in products.prefix(300) {
                var renamed = product
                renamed.name = "Zephyr renamed \(product.id!)"
                try db.update(renamed)
            }
            for product in products.suffix(300) { _ = try db.delete(Product.self, id: product.id!) }
        }
        try Self.checkIndex(of: catalogue)
        var request = CatalogueSearch.products(matching: "phyr ren", mode: .contains)
        request.fetchLimit = 50
        let (ranges, scan) = try KeyRangePagesTests.pages(request, in: catalogue)
        #expect(ranges == scan && scan.count == 50)
        // A deleted name is no longer found, though its range may still hold its key.
        let deleted = Folding.fold(products.last!.name)
        var gone = CatalogueSearch.products(matching: String(deleted.prefix(8)), mode: .contains)
        gone.fetchLimit = 50
        let (goneRanges, goneScan) = try KeyRangePagesTests.pages(gone, in: catalogue)
        #expect(goneRanges == goneScan && !goneScan.contains(products.last!.id!))
        // Reindexing builds the ranges again from the current keys: the old ones are gone.
        // A document holds many keys, one per line, and its trigrams may come from several of
        // them, so a key is held only when one of its lines is the key.
        func documentsHolding(_ key: String) throws -> Int {
            try Self.integer(
                """
                SELECT count(*) FROM \(Self.ranges.trigramTable) WHERE \(Self.ranges.trigramTable) MATCH ?
                  AND instr(char(10) || keys || char(10), char(10) || ? || char(10)) > 0
                """,
                [SQLiteTrigramIndex.matchPattern(for: key)!, key], in: catalogue)
        }
        let renamedAway = Folding.fold(products[0].name)
        #expect(try documentsHolding(renamedAway) > 0, "the old key is still in its range before reindexing")
        _ = try catalogue.sqlite!.reindexKeys()
        #expect(try documentsHolding(renamedAway) == 0)
        #expect(try documentsHolding(deleted) == 0)
        try Self.checkIndex(of: catalogue)
    }

    @Test("Deleting every row leaves one empty range, and later writes fill it again")
    func deleteAll() throws {
        var generator = SplitMix64(seed: SearchPropertyTests.seed ^ 0x55)
        let catalogue = try Self.catalogue(holding: 3_000, using: &generator)
        #expect(try Self.checkIndex(of: catalogue) > 1)
        let deleted = try catalogue.write { db in try db.deleteAll(Product.self) }
        #expect(deleted == 3_000)
        #expect(try Self.checkIndex(of: catalogue) == 1)
        let documents = try Self.integer("SELECT count(*) FROM \(Self.ranges.trigramTable)", in: catalogue)
        #expect(documents == 0, "no deleted key is left to read")
        try catalogue.write { db in
            for index in 0..<100 { try db.upsert(Product(name: "Lamp \(index)", type: "t")) }
        }
        #expect(try Self.checkIndex(of: catalogue) > 1)
        var request = CatalogueSearch.products(matching: "amp 7", mode: .contains)
        request.fetchLimit = 50
        let (ranges, scan) = try KeyRangePagesTests.pages(request, in: catalogue)
        #expect(ranges == scan && scan.count == 11)
    }

    @Test("Bulk writes: a few rows are added to their ranges, many rows rebuild the index")
    func bulkWrites() throws {
        var generator = SplitMix64(seed: SearchPropertyTests.seed ^ 0x33)
        let catalogue = try Self.catalogue(holding: 8_000, using: &generator)
        let built = try Self.checkIndex(of: catalogue)
        let spacedSQL = "SELECT count(*) FROM \(Self.ranges.rangeTable) WHERE id % ? = 0"
        let spaced = try Self.integer(spacedSQL, [SQLiteKeyRangeIndex.idSpacing], in: catalogue)
        #expect(spaced == built, "a rebuilt index spaces its range ids")
        // 1,000 new rows into 8,000: added to their ranges. Half of them share a range, which
        // then splits; the other ranges keep their added keys as documents of their own.
        try catalogue.write { db in
            try db.upsert(contentsOf: (8_000..<9_000).map {
                Product(name: $0 % 2 == 0 ? Self.name($0, using: &generator) : "~~ \($0)", type: "t")
            })
        }
        #expect(try Self.checkIndex(of: catalogue) > built)
        let added = try Self.integer("SELECT count(*) FROM \(Self.ranges.rangeTable) WHERE appended > 0", in: catalogue)
        #expect(added > 0, "the keys were added to their ranges, not rebuilt")
        // 6,000 more: a quarter of the table or more, so the index is built again.
        try catalogue.write { db in
            try db.upsert(contentsOf: (9_000..<15_000).map { Product(name: Self.name($0, using: &generator), type: "t") })
        }
        let rebuilt = try Self.checkIndex(of: catalogue)
        let respaced = try Self.integer(spacedSQL, [SQLiteKeyRangeIndex.idSpacing], in: catalogue)
        #expect(respaced == rebuilt)
    }

    @Test("A range that must split where its id leaves no room: the whole index is built again")
    func splitWithoutRoom() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<1_000).map { Product(name: String(format: "m%04d", $0), type: "t") })
        }
        // Two ranges with neighbouring ids: '' and 'm0500'.
        try catalogue.sqlite!.database.write { db in
            let table = Self.ranges.trigramTable
            try db.execute("DELETE FROM \(Self.ranges.rangeTable)")
            try db.execute("DELETE FROM \(table)")
            try db.execute("INSERT INTO \(Self.ranges.rangeTable) (id, first_key) VALUES (0, ''), (1, 'm0500')")
            try db.execute("INSERT INTO \(table) (rowid, keys) SELECT 0, group_concat(name_key, char(10)) FROM product WHERE name_key < 'm0500'")
            try db.execute("INSERT INTO \(table) (rowid, keys) SELECT 1 << 32, group_concat(name_key, char(10)) FROM product WHERE name_key >= 'm0500'")
        }
        try catalogue.write { db in
            for index in 0..<70 { try db.upsert(Product(name: String(format: "a%04d", index), type: "t")) }
        }
        let count = try Self.checkIndex(of: catalogue)
        #expect(count >= 1_070 / (2 * SQLiteKeyRangeIndex.keysPerRange))
        let ids: [Int64] = try catalogue.sqlite!.database.read { db in
            try db.fetchAll("SELECT id FROM \(Self.ranges.rangeTable) ORDER BY id") { $0.statement.int64(at: 0) }
        }
        #expect(ids == (0..<Int64(count)).map { $0 * SQLiteKeyRangeIndex.idSpacing })
    }

    @Test("An import adds its rows' keys; an aborted one leaves the index as it was")
    func imports() throws {
        var generator = SplitMix64(seed: SearchPropertyTests.seed ^ 0x44)
        let catalogue = try Self.catalogue(holding: 4_000, using: &generator)
        let rows = (0..<300).map { "Imported item \($0 * 7919 % 300),tools" }
        let before = try catalogue.sqlite!.database.read { db in
            try db.fetchAll("SELECT id, first_key, appended FROM \(Self.ranges.rangeTable) ORDER BY id") { "\($0.statement.int64(at: 0)) \($0.statement.string(at: 1)) \($0.statement.int64(at: 2))" }
        }
        // The last row has no type: the import stops and writes nothing.
        #expect(throws: (any Error).self) {
            try catalogue.importText(Product.self, "name,type\n" + rows.joined(separator: "\n") + "\nBroken,\n")
        }
        let after = try catalogue.sqlite!.database.read { db in
            try db.fetchAll("SELECT id, first_key, appended FROM \(Self.ranges.rangeTable) ORDER BY id") { "\($0.statement.int64(at: 0)) \($0.statement.string(at: 1)) \($0.statement.int64(at: 2))" }
        }
        #expect(before == after)
        let counts = try catalogue.importText(Product.self, "name,type\n" + rows.joined(separator: "\n") + "\n").counts
        #expect(counts.added == 300)
        try Self.checkIndex(of: catalogue)
        var request = CatalogueSearch.products(matching: "ported", mode: .contains)
        request.fetchLimit = 50
        let (ranges, scan) = try KeyRangePagesTests.pages(request, in: catalogue)
        #expect(ranges == scan && scan.count == 50)
    }
}
