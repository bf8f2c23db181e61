import CatalogueKit
import Foundation
import Testing

/// Inserts, upserts, updates and deletes keep the folded keys, the alias table and the
/// full-text indexes in step with the rows.
@Suite("Record writes")
struct RecordWritesTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    struct Stored: Equatable {
        let nameKey: String
        let capitalKey: String?
        let aliases: [String: String]  // alias -> alias_key
    }

    func stored(_ id: Int64) throws -> Stored? {
        try catalogue.database.read { db in
            guard let keys = try db.fetchOne("SELECT name_key, capital_key FROM country WHERE id = ?", [id], {
                (try $0.decode(String.self, at: 0), try $0.decode(String?.self, at: 1))
            }) else { return nil }
            let aliases = try db.fetchAll("SELECT alias, alias_key FROM country_alias WHERE country_id = ?", [id]) {
                (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1))
            }
            return Stored(nameKey: keys.0, capitalKey: keys.1, aliases: Dictionary(uniqueKeysWithValues: aliases))
        }
    }

    /// Row ids the FTS table matches for `query` (an FTS5 query).
    func fullText(_ table: String, _ query: String) throws -> Set<Int64> {
        Set(try catalogue.database.read { db in
            try db.fetchAll("SELECT rowid FROM \(table) WHERE \(table) MATCH ?", [query]) { try $0.decode(Int64.self, at: 0) }
        })
    }

    func expectFullTextIntact(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try catalogue.database.inDatabase { db in
            try db.execute("INSERT INTO country_fts(country_fts) VALUES('integrity-check')")
            try db.execute("INSERT INTO product_fts(product_fts) VALUES('integrity-check')")
        }
    }

    @Test("Insert writes keys, aliases and the full-text entry")
    func insert() throws {
        let saved = try catalogue.write { db in
            try db.insert(Country(code: "XA", name: "Ærø Sköll", capital: "Köln-Süd", aliases: ["Foo Land", "Bär Republic"]))
        }
        let id = try #require(saved.id)
        #expect(try stored(id) == Stored(nameKey: Folding.fold("Ærø Sköll"), capitalKey: "koln-sud",
                                          aliases: ["Foo Land": "foo land", "Bär Republic": "bar republic"]))
        #expect(try fullText("country_fts", "\"skoll\"") == [id])
        #expect(try fullText("country_fts", "capital : \"koln\"") == [id])
        #expect(try fullText("country_fts", "aliases : \"bar\"") == [id])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "foo l")).map(\.code) == ["XA"])
        #expect(try catalogue.read { try $0.record(Country.self, id: id) } == saved)
        try expectFullTextIntact()
    }

    @Test("A country without a capital has a NULL capital key")
    func nullCapital() throws {
        let saved = try catalogue.write { db in try db.insert(Country(code: "XB", name: "Nowhere")) }
        #expect(try stored(saved.id!) == Stored(nameKey: "nowhere", capitalKey: nil, aliases: [:]))
    }

    @Test("Update rewrites keys, replaces aliases and re-indexes the text")
    func update() throws {
        var country = try catalogue.write { db in
            try db.insert(Country(code: "XC", name: "Old Näme", capital: "Öld Town", aliases: ["Oldie", "Former"]))
        }
        #expect(try fullText("country_fts", "\"town\"").contains(country.id!))
        #expect(try fullText("country_fts", "\"oldie\"") == [country.id!])
        country.name = "Nöuveau"
        country.capital = nil
        country.aliases = ["Fresh"]
        try catalogue.write { db in try db.update(country) }
        let id = try #require(country.id)
        #expect(try stored(id) == Stored(nameKey: "nouveau", capitalKey: nil, aliases: ["Fresh": "fresh"]))
        #expect(try fullText("country_fts", "\"name\"").contains(id) == false)
        #expect(try fullText("country_fts", "\"oldie\"").isEmpty)
        #expect(try fullText("country_fts", "\"town\"").contains(id) == false)
        #expect(try fullText("country_fts", "\"nouveau\"") == [id])
        #expect(try fullText("country_fts", "\"fresh\"") == [id])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "oldie")).isEmpty)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "fresh")).map(\.id) == [id])
        try expectFullTextIntact()
    }

    @Test("Upsert: inserted, then unchanged, then updated, keeping the id")
    func upsertOutcomes() throws {
        let country = Country(code: "XD", name: "Upsertia", capital: "Uptown", aliases: ["Ups"])
        let (first, inserted) = try catalogue.write { db in try db.upsert(country) }
        #expect(inserted == .inserted)
        let (second, unchanged) = try catalogue.write { db in try db.upsert(country) }
        #expect(unchanged == .unchanged)
        #expect(second.id == first.id)
        var changed = country
        changed.name = "Ūpsertia Nova"
        changed.aliases = ["Ups", "Nova"]
        let (third, updated) = try catalogue.write { db in try db.upsert(changed) }
        #expect(updated == .updated)
        #expect(third.id == first.id)
        #expect(try stored(first.id!) == Stored(nameKey: "upsertia nova", capitalKey: "uptown", aliases: ["Ups": "ups", "Nova": "nova"]))
        #expect(try fullText("country_fts", "\"nova\"") == [first.id!])
        #expect(try catalogue.rowCount("country") == (try SeedData.countries()).count + 1)
        try expectFullTextIntact()
    }

    @Test("Products upsert by name and folded type; keys follow the values")
    func productUpsert() throws {
        let original = try #require(try catalogue.records(FetchRequest<Product>(predicate: .equals("name", "iPad"))).first)
        #expect(try catalogue.write { db in try db.upsert(Product(name: "iPad", type: "device", year: 2010, price: 499)) }.outcome == .unchanged)
        let (saved, outcome) = try catalogue.write { db in try db.upsert(Product(name: "iPad", type: "Device", year: 2010, price: 399)) }
        #expect(outcome == .updated)
        #expect(saved.id == original.id)
        let row = try catalogue.database.read { db in
            try db.fetchOne("SELECT type, type_key, price FROM product WHERE id = ?", [saved.id!]) {
                (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(Double.self, at: 2))
            }
        }
        #expect(row?.0 == "Device" && row?.1 == "device" && row?.2 == 399)
        let renamed = Product(id: saved.id, name: "iPad Classic", type: "device", year: 2010, price: 499)
        try catalogue.write { db in try db.update(renamed) }
        #expect(try fullText("product_fts", "\"classic\"") == [saved.id!])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ipad c")).map(\.name) == ["iPad Classic"])
        try expectFullTextIntact()
    }

    @Test("upsert(contentsOf:) counts what it did")
    func batchCounts() throws {
        let counts = try catalogue.write { db in
            try db.upsert(contentsOf: [
                Product(name: "Batch one", type: "batch", year: 2020, price: 1),
                Product(name: "Batch two", type: "batch", year: 2021, price: 2),
                Product(name: "iPhone", type: "device", year: 2007, price: 599),
                Product(name: "iPod", type: "device", year: 2001, price: 299),
            ])
        }
        #expect(counts == UpsertCounts(inserted: 2, updated: 1, unchanged: 1))
        #expect(counts.total == 4)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "", scope: .type("batch"))).map(\.name) == ["Batch one", "Batch two"])
    }

    @Test("A failing record in upsert(contentsOf:) leaves the database unchanged")
    func batchIsAtomic() throws {
        let before = (try catalogue.rowCount("product"), try catalogue.rowCount("product_fts"))
        let batch = [
            Product(name: "Good one", type: "batch", year: 2020, price: 1),
            Product(name: "iPod", type: "device", year: 2001, price: 1),
            Product(name: "Bad price", type: "batch", year: 2020, price: -5),
        ]
        #expect(throws: DatabaseError.self) {
            try catalogue.database.inDatabase { db in try db.upsert(contentsOf: batch) }
        }
        #expect(try catalogue.records(FetchRequest<Product>(predicate: .equals("name", "Good one"))).isEmpty)
        #expect(try catalogue.records(FetchRequest<Product>(predicate: .equals("name", "iPod"))).first?.price == 399)
        #expect((try catalogue.rowCount("product"), try catalogue.rowCount("product_fts")) == before)
        // Inside a transaction, the batch is a savepoint: the rest of the transaction survives.
        try catalogue.write { db in
            try db.insert(Product(name: "Kept", type: "batch"))
            #expect(throws: DatabaseError.self) { try db.upsert(contentsOf: batch) }
        }
        #expect(try catalogue.records(FetchRequest<Product>(predicate: .equals("type", "batch"))).map(\.name) == ["Kept"])
        try expectFullTextIntact()
    }

    /// Products named `Bulk 0` … that a probe checks the writing connection's indexes during.
    struct ProbedProducts: Sequence, IteratorProtocol {
        let count: Int
        let probeAt: Int
        let probe: () throws -> Void
        var position = 0
        /// The last product is refused (a negative price) when set.
        var failLast = false

        var underestimatedCount: Int { count }

        mutating func next() -> Product? {
            guard position < count else { return nil }
            defer { position += 1 }
            if position == probeAt { try? probe() }
            let price: Double = failLast && position == count - 1 ? -1 : 1
            return Product(name: "Bulk \(position)", type: position.isMultiple(of: 2) ? "even" : "odd", year: 2000, price: price)
        }
    }

    @Test("A bulk upsert builds the plain indexes once at the end, as an import does: the same schema, searchable; a failing one leaves them as they were")
    func bulkUpsertDefersIndexes() throws {
        func schema(_ db: Connection) throws -> [String] {
            try db.fetchAll("SELECT name || ': ' || ifnull(sql, '') FROM sqlite_master WHERE tbl_name = 'product' ORDER BY name") {
                try $0.decode(String.self, at: 0)
            }
        }
        let before = try catalogue.database.inDatabase(schema)
        #expect(before.contains { $0.hasPrefix("product_by_name_key: ") })
        var during: [String] = []
        let cacheBefore: Int? = try catalogue.database.inDatabase { try $0.scalar("PRAGMA cache_size") }
        let threadsBefore: Int? = try catalogue.database.inDatabase { try $0.scalar("PRAGMA threads") }
        let fullTextSettings = try catalogue.database.inDatabase { db in
            try db.fetchAll("SELECT k || '=' || v FROM product_fts_config ORDER BY k") { try $0.decode(String.self, at: 0) }
        }
        let counts = try catalogue.database.inDatabase { db in
            try db.upsert(contentsOf: ProbedProducts(count: 110_000, probeAt: 105_000) { during = try schema(db) })
        }
        #expect(counts.inserted == 110_000)
        #expect(!during.isEmpty && !during.contains { $0.hasPrefix("product_by_name_key: ") }, "the plain indexes are dropped during the batch")
        #expect(during.contains { $0.hasPrefix("sqlite_autoindex_product_1") }, "the natural key's unique index stays")
        #expect(try catalogue.database.inDatabase(schema) == before)
        #expect(try catalogue.database.inDatabase { try $0.scalar("PRAGMA cache_size") } as Int? == cacheBefore)
        #expect(try catalogue.database.inDatabase { try $0.scalar("PRAGMA threads") } as Int? == threadsBefore)
        // The new rows are most of the table: the word index was filled in bulk and merged once.
        #expect(try catalogue.database.inDatabase { try $0.scalar("SELECT count(DISTINCT segid) FROM product_fts_idx") } as Int? == 1)
        #expect(try catalogue.database.inDatabase { db in
            try db.fetchAll("SELECT k || '=' || v FROM product_fts_config ORDER BY k") { try $0.decode(String.self, at: 0) }
        } == fullTextSettings)
        #expect(try catalogue.database.inDatabase { try $0.scalar("PRAGMA integrity_check") } as String? == "ok")
        #expect(try catalogue.records(CatalogueSearch.products(matching: "bulk 10999", scope: .type("Odd"))).map(\.name)
            == ["Bulk 10999", "Bulk 109991", "Bulk 109993", "Bulk 109995", "Bulk 109997", "Bulk 109999"])
        try expectFullTextIntact()

        // Failing after the indexes were dropped: nothing lands, and the indexes are as before.
        let rows = try catalogue.rowCount("product")
        during = []
        #expect(throws: DatabaseError.self) {
            try catalogue.database.inDatabase { db in
                try db.upsert(contentsOf: ProbedProducts(count: 230_000, probeAt: 229_000, probe: { during = try schema(db) }, failLast: true))
            }
        }
        #expect(!during.isEmpty && !during.contains { $0.hasPrefix("product_by_name_key: ") })
        #expect(try catalogue.rowCount("product") == rows)
        #expect(try catalogue.database.inDatabase(schema) == before)
    }

    @Test("Aliases with the separator are refused and nothing is written", arguments: ["a;b", ";", " x; "])
    func invalidAlias(alias: String) throws {
        let before = try catalogue.rowCount("country")
        #expect(throws: RecordError.invalidAlias(alias)) {
            try catalogue.database.inDatabase { db in
                try db.insert(Country(code: "XE", name: "Aliasia", aliases: ["Fine", alias]))
            }
        }
        #expect(try catalogue.rowCount("country") == before)
        #expect(try catalogue.database.read { db in try db.scalar("SELECT count(*) FROM country_alias WHERE alias = 'Fine'") as Int? } == 0)
        let turkey = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "TR"))).first)
        var broken = turkey
        broken.aliases.append(alias)
        #expect(throws: RecordError.invalidAlias(alias)) {
            try catalogue.database.inDatabase { db in try db.update(broken) }
        }
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "turkey")).map(\.code) == ["TR"])
    }

    @Test("Aliases are stored trimmed, without empty ones or duplicates; re-upserting is unchanged")
    func aliasesNormalized() throws {
        let country = Country(code: "XE", name: "Aliasia", aliases: ["  Fine ", "", "   ", "Fine", "Other"])
        let saved = try catalogue.database.inDatabase { db in try db.insert(country) }
        let stored = try #require(try catalogue.database.inDatabase { db in try db.record(Country.self, id: saved.id!) })
        #expect(stored.aliases == ["Fine", "Other"])
        #expect(try catalogue.database.read { db in
            try db.fetchAll("SELECT alias FROM country_alias WHERE country_id = ? ORDER BY alias", [saved.id!]) { try $0.decode(String.self, at: 0) }
        } == ["Fine", "Other"])
        #expect(try catalogue.database.inDatabase { db in try db.upsert(country).outcome } == .unchanged)
    }

    @Test("Updating a missing id throws notFound; a record without id throws missingID")
    func updateErrors() throws {
        #expect(throws: RecordError.notFound(table: "country", id: 999_999)) {
            try catalogue.write { db in try db.update(Country(id: 999_999, code: "XF", name: "Ghost")) }
        }
        #expect(throws: RecordError.missingID(table: "product")) {
            try catalogue.write { db in try db.update(Product(name: "No id", type: "x")) }
        }
        #expect(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "XF"))).isEmpty)
    }

    @Test("Delete removes the row, its aliases and its full-text entry")
    func delete() throws {
        let turkey = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "TR"))).first)
        let id = try #require(turkey.id)
        #expect(try fullText("country_fts", "\"turkey\"") == [id])
        #expect(try catalogue.write { db in try db.delete(Country.self, id: id) })
        #expect(try catalogue.write { db in try db.delete(Country.self, id: id) } == false)
        #expect(try stored(id) == nil)
        #expect(try catalogue.database.read { db in try db.scalar("SELECT count(*) FROM country_alias WHERE country_id = ?", [id]) as Int? } == 0)
        #expect(try fullText("country_fts", "\"turkey\"").isEmpty)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "turkey")).isEmpty)
        let products = try catalogue.rowCount("product")
        #expect(try catalogue.write { db in try db.deleteAll(Product.self) } == products)
        #expect(try fullText("product_fts", "\"ipad\"*").isEmpty)
        try expectFullTextIntact()
    }
}
