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

/// Byte-wise string relations: SQLite compares TEXT with memcmp over UTF-8, not with Swift's
/// canonical-equivalence `String` comparison.
enum Bytes {
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        Array(text.utf8).starts(with: Array(prefix.utf8))
    }

    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        Array(text.utf8).reversed().starts(with: Array(suffix.utf8).reversed())
    }

    static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// `lhs < rhs` as SQLite's BINARY collation orders text.
    static func less(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// `lhs == rhs` byte for byte.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}

/// The catalogue's display order (folded name, name, id) computed in Swift, byte-wise.
func displayOrdered<R: Record>(_ records: [R], name: (R) -> String) -> [R] {
    records.sorted { lhs, rhs in
        let (leftKey, rightKey) = (Folding.fold(name(lhs)), Folding.fold(name(rhs)))
        if !Bytes.equal(leftKey, rightKey) { return Bytes.less(leftKey, rightKey) }
        if !Bytes.equal(name(lhs), name(rhs)) { return Bytes.less(name(lhs), name(rhs)) }
        return (lhs.id ?? 0) < (rhs.id ?? 0)
    }
}

extension Catalogue {
    /// The SQLite database under a test catalogue, for SQL-level checks.
    var database: DatabaseQueue {
        sqlite!.database
    }
}
