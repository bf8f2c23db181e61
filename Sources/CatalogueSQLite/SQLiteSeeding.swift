import CatalogueCore
import SQLiteStore

/// Loads the built-in seed (``SeedData``) into a new SQLite catalogue.
enum SQLiteSeeding {
    /// Loads the seed unless this database was seeded before (recorded in `catalogue_info`),
    /// in one transaction. Deleting seeded rows later does not bring them back.
    static func seedIfNeeded(_ db: Connection) throws {
        let key = "seeded_at"
        let seeded: String? = try db.scalar("SELECT value FROM catalogue_info WHERE key = ?", [key])
        guard seeded == nil else { return }
        try db.transaction(.immediate) {
            // Checked again inside the transaction: another process may have seeded meanwhile.
            let seeded: String? = try db.scalar("SELECT value FROM catalogue_info WHERE key = ?", [key])
            guard seeded == nil else { return }
            try db.upsert(contentsOf: try SeedData.countries())
            try db.upsert(contentsOf: try SeedData.products())
            try db.execute(
                "INSERT INTO catalogue_info (key, value) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", [key])
        }
    }

}
