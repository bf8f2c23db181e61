import CatalogueCore
import SQLiteStore

extension Catalogue {
    /// Opens the SQLite catalogue at `path`, creating, migrating and (when new) seeding it.
    ///
    /// ```swift
    /// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")   // created, migrated, seeded
    /// ```
    ///
    /// Throws ``MigrationError`` when the file was made by a newer version, ``CatalogueError``
    /// when it is a directory, an empty file, not a database, or cannot be opened; the file is
    /// left as it was.
    ///
    /// - Parameters:
    ///   - path: the database file (`":memory:"` for a private in-memory catalogue).
    ///   - seed: load the built-in countries and products into a new database.
    ///   - configuration: connection settings.
    ///   - appMigrations: an embedding app's own migrations (for its own ``Record`` types),
    ///     applied after the catalogue's and recorded in their own table, `app_migrations`, so
    ///     their numbers never collide with the library's.
    public convenience init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = []
    ) throws {
        self.init(engine: try SQLiteEngine(
            path: path, seed: seed, configuration: configuration, appMigrations: appMigrations))
    }

    /// The SQLite engine, when the catalogue runs on SQLite (nil on another engine): its
    /// ``SQLiteEngine/database`` gives SQL-level access to the file.
    public var sqlite: SQLiteEngine? {
        engine as? SQLiteEngine
    }

    /// The catalogue's migrations on SQLite.
    public static func migrator() throws -> Migrator {
        try SQLiteEngine.migrator()
    }
}
