import CatalogueKit
import Foundation

// Helpers shared by the CatalogueKit tests.

/// A new private in-memory catalogue, migrated and seeded.
func seededCatalogue() throws -> Catalogue {
    try Catalogue(path: ":memory:")
}

/// A new private in-memory catalogue, migrated but without the seed.
func emptyCatalogue() throws -> Catalogue {
    try Catalogue(path: ":memory:", seed: false)
}

extension Catalogue {
    /// The records of `request`, read in a read transaction.
    func records<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        try read { db in try db.fetch(request) }
    }

    /// `SELECT count(*) FROM table`.
    func rowCount(_ table: String) throws -> Int {
        try database.read { db in try db.scalar("SELECT count(*) FROM \(table)") ?? -1 }
    }

    /// Every country, in id order.
    func allCountries() throws -> [Country] {
        try records(FetchRequest<Country>())
    }

    /// Every product, in id order.
    func allProducts() throws -> [Product] {
        try records(FetchRequest<Product>())
    }
}

extension Catalogue {
    /// The SQLite database under a test catalogue, for SQL-level checks.
    var database: DatabaseQueue {
        sqlite!.database
    }
}
