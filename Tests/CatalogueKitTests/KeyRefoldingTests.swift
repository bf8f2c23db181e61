import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// Migration 3 (keys with defaults, the refold queue and its triggers) keeps every row, and the
/// queue is folded the library's way.
@Suite("Key refolding for other writers")
struct KeyRefoldingTests {
    /// A fingerprint of every row and key of the catalogue's tables.
    static func fingerprint(_ db: Connection) throws -> [String] {
        try [
            "SELECT group_concat(id || '|' || code || '|' || name || '|' || name_key || '|' || coalesce(capital_key, '-') || '|' || aliases, ';') FROM (SELECT * FROM country ORDER BY id)",
            "SELECT group_concat(country_id || '|' || alias || '|' || alias_key, ';') FROM (SELECT * FROM country_alias ORDER BY country_id, alias)",
            "SELECT group_concat(id || '|' || name || '|' || name_key || '|' || type_key, ';') FROM (SELECT * FROM product ORDER BY id)",
        ].map { try db.scalar($0) ?? "" }
    }

    @Test("a catalogue at version 2 migrates to 3 with every row, id, alias and key kept")
    func migrationKeepsRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("v2.sqlite")
        let before: [String]
        do {
            let db = try Connection(path: path)
            try SQLiteEngine.registerFunctions(on: db)
            try Migrator(migrations: Array(SQLiteResources.migrations.prefix(2)), tableName: "catalogue_migrations").migrate(db)
            try db.upsert(contentsOf: try SeedData.countries())
            try db.upsert(contentsOf: try SeedData.products())
            try db.execute("INSERT INTO catalogue_info (key, value) VALUES ('seeded_at', 'test')")
            before = try Self.fingerprint(db)
        }
        let catalogue = try Catalogue(path: path)
        let after = try catalogue.database.read { try Self.fingerprint($0) }
        #expect(after == before)
        #expect(try catalogue.database.read { try $0.scalar("SELECT count(*) FROM catalogue_migrations") } == SQLiteResources.migrations.count)
        #expect(try catalogue.search(CatalogueSearch.countries(matching: "ivory")).records.map(\.code) == ["CI"])
        #expect(try catalogue.database.read { db in try db.scalar("PRAGMA foreign_key_check") as String? } == nil)
    }

    @Test("queued rows are folded as the library folds, and the queue is emptied")
    func refoldQueued() throws {
        let catalogue = try emptyCatalogue()
        // Raw SQL, as another tool writes: provisional keys from SQLite's lower(), queued.
        try catalogue.database.write { db in
            try db.execute("INSERT INTO product (name, type) VALUES ('Ærø Straße', 'ÉTÉ')")
        }
        let provisional: [String] = try catalogue.database.read { db in
            [try db.scalar("SELECT name_key FROM product") ?? "", try db.scalar("SELECT type_key FROM product") ?? ""]
        }
        #expect(provisional == ["Ærø straße", "ÉtÉ"])
        #expect(try catalogue.database.read { try $0.scalar("SELECT count(*) FROM catalogue_refold") } == 2)
        // The catalogue's next write folds them before it commits.
        try catalogue.write { _ in }
        let folded: [String] = try catalogue.database.read { db in
            [try db.scalar("SELECT name_key FROM product") ?? "", try db.scalar("SELECT type_key FROM product") ?? ""]
        }
        #expect(folded == [Folding.fold("Ærø Straße"), "ete"])
        #expect(try catalogue.database.read { try $0.scalar("SELECT count(*) FROM catalogue_refold") } == 0)
        #expect(try catalogue.fetch(CatalogueSearch.products(matching: "aerø", scope: .type("ete"))).isEmpty)
        #expect(try catalogue.fetch(CatalogueSearch.products(matching: "ærø", scope: .type("ete"))).map(\.name) == ["Ærø Straße"])
    }
}
