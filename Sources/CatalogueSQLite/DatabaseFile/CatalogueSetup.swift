import CatalogueCore
import SQLiteStore
/// Makes a connection ready to serve a catalogue: a new database gets the schema and the seed;
/// an existing one is identified, checked and migrated (or, read-only, only checked).
enum CatalogueSetup {
    /// The catalogue's migrator and the app's.
    static func migrators(appMigrations: [Migration]) throws -> [Migrator] {
        [try SQLiteEngine.migrator(), try Migrator(migrations: appMigrations, tableName: "app_migrations")]
    }

    /// Registers the functions, applies every migration and, with `seed`, loads the seed: the
    /// making of a new catalogue, the only time the seed is loaded.
    static func prepareNew(_ db: Connection, seed: Bool, appMigrations: [Migration]) throws {
        try SQLiteEngine.registerFunctions(on: db)
        for migrator in try migrators(appMigrations: appMigrations) {
            try migrator.migrate(db)
        }
        if seed {
            try SQLiteSeeding.load(into: db)
        }
    }

    /// Registers the functions, refuses a database that is not a catalogue, and applies the
    /// pending migrations after an integrity check (read-only: refuses a catalogue that needs
    /// one). Returns whether the integrity check ran (and passed).
    static func prepareExisting(_ db: Connection, path: String, readOnly: Bool, appMigrations: [Migration]) throws -> Bool {
        try SQLiteEngine.registerFunctions(on: db)
        try CatalogueIdentity.check(db, path: path)
        let migrators = try migrators(appMigrations: appMigrations)
        // The catalogue's first, then the app's.
        let pendingByMigrator = try migrators.map { try $0.pendingMigrations(db) }
        let pending = pendingByMigrator.flatMap { $0 }
        if readOnly {
            if let first = pending.first {
                throw CatalogueError.needsMigration(path: path, migration: first.identifier)
            }
            return false
        }
        let journalMode: String? = try db.scalar("PRAGMA journal_mode")
        let needsWAL = !db.isInMemory && journalMode?.lowercased() != "wal"
        guard !pending.isEmpty || needsWAL else { return false }
        // Writes ahead: the file must be sound first.
        try IntegrityGate.check(db, path: path)
        if needsWAL { try db.enableWriteAheadLogging() }
        // Before the migration that folds the catalogue's keys, the app's tables' keys, which it
        // cannot name: in a transaction of their own, so that a crash between the two leaves the
        // migration pending and this runs again (changing nothing the second time).
        if pendingByMigrator[0].contains(where: { $0.identifier == SQLiteQuoteFolding.migrationIdentifier }) {
            try db.transaction(.immediate) { _ = try SQLiteQuoteFolding.refoldAppKeys(on: db) }
        }
        for migrator in migrators {
            try migrator.migrate(db)
        }
        return true
    }
}
