import CatalogueKit
@testable import CatalogueSQLite
import Foundation
import Testing

/// A bulk write drops some of the catalogue's indexes and triggers and creates them again from
/// the definitions `sqlite_master` stores. SQLite reads only the first statement of such a
/// definition, so a file edited to carry more opens and passes every check; the write refuses
/// it, and the edit's statements never run.
@Suite("Stored definitions")
struct StoredDefinitionsTests {
    /// The trigger for rows without keys, the full-text index's insert trigger (both set aside
    /// at an import's start), and a plain index (dropped after 100,000 rows).
    @Test("An import refuses a stored definition that carries another statement, runs none of it, and changes nothing",
          arguments: ["product_keys_after_insert", "product_fts_after_insert", "product_by_year"])
    func definitionWithAnotherStatement(object: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        do { _ = try Catalogue(path: path) }
        let tail = "; UPDATE country SET capital = 'Edited'"
        do {
            let db = try Connection(path: path)
            try db.execute("PRAGMA writable_schema = ON")
            try db.execute("UPDATE sqlite_master SET sql = sql || ? WHERE name = ?", [tail, object])
            try db.execute("PRAGMA writable_schema = OFF")
        }
        let catalogue = try Catalogue(path: path)
        let products = try catalogue.rowCount("product")
        let rows = object == "product_by_year" ? 100_000 : 3_000
        let csv = "name,type,year\n" + (0..<rows).map { "Stored \($0),t,2001\n" }.joined()
        #expect {
            try catalogue.importRecords(Product.self, from: ImportInput(text: csv, name: "s.csv"), options: ImportOptions(format: .csv))
        } throws: { error in
            let error = try #require(error as? DatabaseError)
            return error.resultCode == .SQLITE_CORRUPT
                && error.message.hasPrefix("the stored definition of \(object) holds more than one statement")
        }
        #expect(try catalogue.rowCount("product") == products)
        try catalogue.sqlite!.database.read { db in
            #expect(try db.scalar("SELECT count(*) FROM country WHERE capital = 'Edited'") == 0)
            let stored: String? = try db.scalar("SELECT sql FROM sqlite_master WHERE name = ?", [object])
            #expect(stored?.hasSuffix(tail) == true)
        }
    }

    @Test("A definition of one statement is compiled, not run; with a trailing comment or semicolon it is still one")
    func oneStatement() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (a)")
        _ = try db.storedDefinition("CREATE INDEX t_a ON t (a)", of: "t_a")
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't_a'") == 0)
        try db.storedDefinition("CREATE INDEX t_a ON t (a); -- a comment", of: "t_a").execute()
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't_a'") == 1)
    }
}
