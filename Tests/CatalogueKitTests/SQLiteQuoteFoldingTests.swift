import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// Migration 10: keys stored when the folding kept typographic apostrophes and quotation marks
/// (‘ ’ “ ”…) are folded to their ASCII forms, as the library folds them now, and every index
/// built on the keys follows; an app's tables' keys are folded as the migration is applied
/// (`SQLiteQuoteFolding`).
@Suite("Typographic quotes in stored keys (migration 10, and an app's tables)")
struct SQLiteQuoteFoldingTests {
    /// The fold before migration 10: Foundation's, which keeps the marks.
    static func previousFold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    @Test("A catalogue at version 9 with the marks in its keys: folded keys, found both ways, indexes in step")
    func migrationFoldsStoredKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("v9.sqlite")
        let products = [Product(name: "Ma‘amoul „Deluxe“ tin", type: "Kids’ food"), Product(name: "iMac 27” display", type: "desk")]
            + (0..<500).map { Product(name: "Filler \($0)", type: "desk") }
        do {
            let db = try Connection(path: path)
            try SQLiteEngine.registerFunctions(on: db)
            try Migrator(migrations: Array(SQLiteResources.migrations.prefix(9)), tableName: "catalogue_migrations").migrate(db)
            try Migrator(migrations: [City.migration], tableName: "app_migrations").migrate(db)
            // An app's city (HostRecordTypeTests), its key as the library wrote it before; one whose
            // key is no fold of its name; and a table whose `_key` column is not a folded key.
            try db.execute("""
                INSERT INTO city (name, name_key, country_code) VALUES ('O‘zbek “Deluxe” Café', 'o‘zbek “deluxe” cafe', 'UZ'),
                    ('Odd’s', 'something’else', 'GB');
                CREATE TABLE api (service TEXT, service_key TEXT);
                INSERT INTO api VALUES ('Mail', 'k’3y');
                """)
            try db.upsert(contentsOf: try SeedData.countries())
            try db.upsert(contentsOf: products)
            try db.execute("INSERT INTO catalogue_info (key, value) VALUES ('seeded_at', 'test')")
            // The keys as the library wrote them before: the marks kept.
            try db.transaction {
                for (table, id, value, key) in [("country", "id", "name", "name_key"), ("country", "id", "capital", "capital_key"),
                                                ("product", "id", "name", "name_key"), ("product", "id", "type", "type_key")] {
                    let rows = try db.fetchAll("SELECT \(id), \(value) FROM \(table) WHERE \(value) IS NOT NULL") {
                        (try $0.decode(Int64.self, at: 0), try $0.decode(String.self, at: 1))
                    }
                    for (rowID, text) in rows {
                        try db.execute("UPDATE \(table) SET \(key) = ? WHERE \(id) = ?", [Self.previousFold(text), rowID])
                    }
                }
                let aliases = try db.fetchAll("SELECT country_id, alias FROM country_alias") { (try $0.decode(Int64.self, at: 0), try $0.decode(String.self, at: 1)) }
                for (country, alias) in aliases {
                    try db.execute("UPDATE country_alias SET alias_key = ? WHERE country_id = ? AND alias = ?", [Self.previousFold(alias), country, alias])
                }
            }
            let marked: Int = try db.scalar("SELECT count(*) FROM country_alias WHERE alias_key GLOB '*[‘’]*'") ?? 0
            try #require(marked >= 5, "the seed's aliases hold ‘ (O‘zbekiston, al-‘Irāq)")
            try #require(try db.scalar("SELECT count(*) FROM product WHERE name_key GLOB '*[”„“‘]*'") == 2)
        }
        let catalogue = try Catalogue(path: path, appMigrations: [City.migration])
        try catalogue.database.read { db in
            #expect(try db.fetchAll("SELECT name_key FROM city ORDER BY name") { try $0.decode(String.self, at: 0) }
                == ["something’else", "o'zbek \"deluxe\" cafe"])  // Odd’s, O‘zbek…
            #expect(try db.scalar("SELECT service_key FROM api") == "k’3y")
            #expect(try db.scalar("SELECT count(*) FROM catalogue_migrations") == SQLiteResources.migrations.count)
            // Every key is what the library folds now.
            for (table, value, key) in [("country", "name", "name_key"), ("country", "capital", "capital_key"), ("country_alias", "alias", "alias_key"),
                                        ("product", "name", "name_key"), ("product", "type", "type_key")] {
                let pairs = try db.fetchAll("SELECT \(value), \(key) FROM \(table) WHERE \(value) IS NOT NULL") {
                    (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1))
                }
                #expect(!pairs.isEmpty)
                for (text, stored) in pairs { #expect(stored == Folding.fold(text), "\(table).\(key): \(text)") }
            }
        }
        func countries(_ text: String, mode: MatchMode = .prefix) throws -> [String] {
            try catalogue.records(CatalogueSearch.countries(matching: text, mode: mode)).map(\.code)
        }
        func productNames(_ text: String, mode: MatchMode = .prefix, scope: ProductScope = .all) throws -> [String] {
            try catalogue.records(CatalogueSearch.products(matching: text, scope: scope, mode: mode)).map(\.name)
        }
        #expect(try countries("o'zbekiston") == ["UZ"])
        #expect(try countries("o‘zbekiston") == ["UZ"])
        #expect(try countries("al-'iraq", mode: .contains) == ["IQ"])
        #expect(try productNames("ma'amoul \"deluxe\"") == ["Ma‘amoul „Deluxe“ tin"])
        #expect(try productNames("amoul \"del", mode: .contains) == ["Ma‘amoul „Deluxe“ tin"])
        #expect(try productNames("27\" dis", mode: .contains) == ["iMac 27” display"])
        #expect(try productNames("", scope: .type("kids' food")) == ["Ma‘amoul „Deluxe“ tin"])
        #expect(try catalogue.fetch(FetchRequest<City>(predicate: .beginsWith("name", "o'zbek \"del", options: .caseAndDiacriticInsensitive)))
            .map(\.name) == ["O‘zbek “Deluxe” Café"])
        // The trigram index and the key ranges hold the new keys (FTS5's own check throws on a mismatch).
        try KeyRangeMaintenanceTests.checkIndex(of: catalogue)
        try catalogue.sqlite!.database.write { db in
            try db.execute("INSERT INTO product_name_key_trigram (product_name_key_trigram) VALUES ('integrity-check')")
        }
    }
}
