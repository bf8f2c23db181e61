import CatalogueCore
import SQLiteStore

/// Loads the built-in seed (``SeedData``) into a new SQLite catalogue.
enum SQLiteSeeding {
    /// Loads the seed into a new catalogue, in one transaction, and records when in
    /// `catalogue_info` (`seeded_at`). Only the creation of a catalogue calls it: an existing one
    /// is never seeded again, so deleted or edited seed rows stay as the user left them.
    static func load(into db: Connection) throws {
        try db.transaction(.immediate) {
            try db.upsert(contentsOf: try SeedData.countries())
            try db.upsert(contentsOf: try SeedData.products())
            try db.execute(
                "INSERT OR REPLACE INTO catalogue_info (key, value) VALUES ('seeded_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
        }
    }
}
