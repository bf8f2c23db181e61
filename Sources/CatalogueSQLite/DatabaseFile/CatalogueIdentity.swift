import CatalogueCore
import SQLiteStore
/// What makes a SQLite file a catalogue: a `catalogue_migrations` table that records the
/// catalogue's first migration. Any other SQLite database (an app's own file, an empty one) is
/// refused before anything is written to it.
///
/// ```swift
/// try CatalogueIdentity.check(db)   // throws CatalogueError.notACatalogue
/// ```
enum CatalogueIdentity {
    /// The table that records the catalogue's migrations.
    static let migrationsTable = "catalogue_migrations"

    /// The identifier of the first migration, which every catalogue has applied.
    static var firstMigration: String {
        SQLiteResources.migrations.first?.identifier ?? "0001_initial"
    }

    /// Whether the database on `db` is a catalogue. Reads only.
    static func isCatalogue(_ db: Connection) throws -> Bool {
        let tables: Int? = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [migrationsTable])
        guard tables == 1 else { return false }
        let applied: Int? = try db.scalar(
            "SELECT count(*) FROM \(migrationsTable) WHERE identifier = ?", [firstMigration])
        return applied == 1
    }

    /// Throws ``CatalogueError/notACatalogue(path:)`` unless the database on `db` is a catalogue.
    static func check(_ db: Connection, path: String) throws {
        guard try isCatalogue(db) else { throw CatalogueError.notACatalogue(path: path) }
    }
}
