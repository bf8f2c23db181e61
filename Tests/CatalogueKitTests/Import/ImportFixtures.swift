import CatalogueKit
import Foundation
import Testing

/// Every row of the catalogue's tables (products, countries, aliases), for "nothing changed"
/// checks, after checking that the full-text and trigram indexes agree with their tables.
struct CatalogueSnapshot: Equatable {
    let products: [[DatabaseValue]]
    let countries: [[DatabaseValue]]
    let aliases: [[DatabaseValue]]
    let schema: [[DatabaseValue]]

    init(_ catalogue: Catalogue) throws {
        try catalogue.database.inDatabase { db in
            try db.execute("INSERT INTO product_fts(product_fts) VALUES('integrity-check')")
            try db.execute("INSERT INTO country_fts(country_fts) VALUES('integrity-check')")
            try db.execute("INSERT INTO product_name_key_trigram(product_name_key_trigram) VALUES('integrity-check')")
        }
        func rows(_ sql: String) throws -> [[DatabaseValue]] {
            try catalogue.database.read { db in try db.fetchAll(sql) { $0.values } }
        }
        products = try rows("SELECT * FROM product ORDER BY id")
        countries = try rows("SELECT * FROM country ORDER BY id")
        aliases = try rows("SELECT * FROM country_alias ORDER BY country_id, alias")
        schema = try rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
    }
}

extension Catalogue {
    /// Imports `text` as a file named `name`, collecting skipped rows.
    func importText<R: ImportableRecord>(
        _ type: R.Type, _ text: String, name: String = "test.csv", format: RecordFileFormat = .csv,
        onError: ImportErrorPolicy = .abort, dryRun: Bool = false
    ) throws -> (counts: ImportCounts, skipped: [String]) {
        var skipped: [String] = []
        let counts = try importRecords(
            type, from: ImportInput(text: text, name: name),
            options: ImportOptions(format: format, onError: onError, dryRun: dryRun),
            skipped: { skipped.append($0.description) })
        return (counts, skipped)
    }

    /// The product with this name, if any.
    func product(named name: String) throws -> Product? {
        try read { db in try db.fetchFirst(FetchRequest<Product>(predicate: .equals("name", name))) }
    }

    /// Ids of the products whose name has a word starting with `prefix` (full-text search).
    func fullTextProductIDs(_ prefix: String) throws -> [Int64] {
        try database.read { db in
            try db.fetchAll("SELECT rowid FROM product_fts WHERE product_fts MATCH ? ORDER BY rowid", ["\"\(prefix)\" *"]) {
                try $0.decode(Int64.self, at: 0)
            }
        }
    }
}

/// The text an `ImportIssue` thrown by `body` describes, or nil when nothing was thrown.
func issueText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return String(describing: error)
    }
}
