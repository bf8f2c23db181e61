import CatalogueKit
import Foundation
import PostgresTestSupport
import Testing

/// Other SQLite tools find the catalogue's full-text index: sqlite-utils (and Datasette, which
/// detects it the same way: `content="TABLE"` in the virtual table's SQL) search a new
/// catalogue and one migrated from the first schema, with the same results as CatalogueKit.
@Suite("Full-text index detected by sqlite-utils")
struct FullTextToolCompatibilityTests {
    /// `sqlite-utils` on `PATH` (pip install sqlite-utils).
    static var sqliteUtils: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/sqlite-utils" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs sqlite-utils with `arguments`.
    func sqliteUtils(_ arguments: [String]) throws -> ProgramResult {
        let executable = try #require(
            Self.sqliteUtils, "sqlite-utils is missing (pip install sqlite-utils; .ci/run does); these tests need it")
        return try runProgram(executable, arguments)
    }

    /// The `name` of each row sqlite-utils printed (a JSON array).
    func names(_ result: ProgramResult) throws -> [String] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]], "\(result.output)")
        return rows.compactMap { $0["name"] as? String }
    }

    @Test("sqlite-utils search finds the iPad rows and Côte d'Ivoire by its alias in a new catalogue")
    func newCatalogue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("catalogue.sqlite")
        do {
            let catalogue = try Catalogue(path: path)
            let sql: String? = try catalogue.sqlite?.database.read { db in
                try db.scalar("SELECT sql FROM sqlite_master WHERE name = 'product_fts'")
            }
            #expect(sql?.contains("content=\"product\"") == true, "\(sql ?? "")")
        }
        let products = try sqliteUtils(["search", path, "product", "ipad"])
        #expect(products.status == 0, "\(products.errorOutput)")
        #expect(Set(try names(products)) == ["iPad", "iPad mini"])
        let countries = try sqliteUtils(["search", path, "country", "ivory"])
        #expect(countries.status == 0, "\(countries.errorOutput)")
        #expect(try names(countries) == ["Côte d'Ivoire"])
    }

    @Test("A catalogue of the first schema, which sqlite-utils cannot search, is migrated: searchable, nothing lost")
    func migratedCatalogue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("old.sqlite")
        // The schema as version 1 left it, with rows written through its triggers.
        do {
            let connection = try Connection(path: path)
            let first = try #require(SQLiteResources.migrations.first)
            #expect(first.identifier == "0001_initial")
            _ = try Migrator(migrations: [first], tableName: "catalogue_migrations").migrate(connection)
            try connection.execute("""
                INSERT INTO product (name, name_key, type, type_key, year, price) VALUES
                    ('iPad', 'ipad', 'device', 'device', 2010, 499),
                    ('iPad mini', 'ipad mini', 'device', 'device', 2012, 659),
                    ('iPod touch', 'ipod touch', 'device', 'device', 2007, 210),
                    ('Crème brûlée torch', 'creme brulee torch', 'kitchen', 'kitchen', 2019, 34.5)
                """)
        }
        let before = try sqliteUtils(["search", path, "product", "ipad"])
        #expect(before.status != 0)
        #expect(before.errorOutput.contains("not configured for full-text search"), "\(before.errorOutput)")

        let catalogue = try Catalogue(path: path, seed: false)
        let applied: [String] = try catalogue.sqlite!.database.read { db in
            try db.fetchAll("SELECT identifier FROM catalogue_migrations ORDER BY identifier") { try $0.decode(String.self, at: 0) }
        }
        #expect(applied == SQLiteResources.migrations.map(\.identifier))
        #expect(applied.contains("0002_fts_content_detectable"))
        // The index was rebuilt from the rows: CatalogueKit's own word search finds them all.
        let words = try catalogue.records(CatalogueSearch.products(matching: "ip", mode: .words)).map(\.name)
        #expect(Set(words) == ["iPad", "iPad mini", "iPod touch"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "creme brul", mode: .words)).map(\.name) == ["Crème brûlée torch"])
        // The triggers were made again: a new row is indexed.
        try catalogue.write { db in try db.upsert(Product(name: "iPad Air", type: "device", year: 2013, price: 499)) }
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ipad air", mode: .words)).map(\.name) == ["iPad Air"])

        let after = try sqliteUtils(["search", path, "product", "ipad"])
        #expect(after.status == 0, "\(after.errorOutput)")
        #expect(Set(try names(after)) == ["iPad", "iPad mini", "iPad Air"])
        // FTS5's own check of the index against the table (throws on a mismatch).
        try catalogue.sqlite!.database.write { db in
            try db.execute("INSERT INTO product_fts (product_fts) VALUES ('integrity-check')")
            try db.execute("INSERT INTO country_fts (country_fts) VALUES ('integrity-check')")
            try db.execute("INSERT INTO product_name_key_trigram (product_name_key_trigram) VALUES ('integrity-check')")
        }
        // Migration 0004 indexed the old rows' keys for CONTAINS: the trigram index finds them.
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ûlée to", mode: .contains)).map(\.name) == ["Crème brûlée torch"])
        let plan = try catalogue.sqlite!.database.read { db in
            try db.explainQueryPlan(CatalogueSearch.products(matching: "ûlée to", mode: .contains))
        }
        #expect(plan.contains { $0.contains("product_name_key_trigram") }, "\(plan)")
        // Migration 0009 made it again without per-row sizes (no `_docsize` table), from the rows.
        let trigramTables: [String] = try catalogue.sqlite!.database.read { db in
            try db.fetchAll("SELECT name FROM sqlite_master WHERE name LIKE 'product_name_key_trigram%' ORDER BY name") {
                try $0.decode(String.self, at: 0)
            }
        }
        #expect(trigramTables == ["product_name_key_trigram", "product_name_key_trigram_after_delete",
                                  "product_name_key_trigram_after_insert", "product_name_key_trigram_after_update",
                                  "product_name_key_trigram_config", "product_name_key_trigram_data", "product_name_key_trigram_idx"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ipa", mode: .contains)).map(\.name) == ["iPad", "iPad Air", "iPad mini"])
    }
}
