import CatalogueCore
import SQLiteStore

extension Catalogue {
    /// Opens the SQLite catalogue at `path`: creates it when missing (atomically, with the
    /// seed), migrates an existing one, and refuses anything that is not a catalogue.
    ///
    /// ```swift
    /// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")   // created and seeded on first use
    /// ```
    ///
    /// - A missing file becomes a new catalogue, built in a temporary file in the same directory
    ///   and linked into place, so processes starting at once all succeed and a killed creation
    ///   leaves nothing behind. The seed is loaded then, and never again.
    /// - An existing file must be a catalogue: a directory, a device, a FIFO, an empty file, a
    ///   file that is not SQLite, or a SQLite database that is not a catalogue is refused with a
    ///   ``CatalogueError``, untouched.
    /// - With ``CatalogueAccess/readOnly`` (or a file this user cannot write) it is opened
    ///   read-only and never written; otherwise it is migrated, after a `PRAGMA quick_check`.
    ///
    /// Throws ``CatalogueError`` (the file is left as it was), ``MigrationError`` when the file
    /// was made by a newer version, and ``DatabaseError`` for other database failures.
    ///
    /// - Parameters:
    ///   - path: the database file (`":memory:"` for a private in-memory catalogue).
    ///   - seed: load the built-in countries and products into a new database.
    ///   - configuration: connection settings.
    ///   - appMigrations: an embedding app's own migrations (for its own ``Record`` types),
    ///     applied after the catalogue's and recorded in their own table, `app_migrations`, so
    ///     their numbers never collide with the library's.
    ///   - access: whether an existing file may be migrated and written.
    public convenience init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = [], access: CatalogueAccess = .readWrite
    ) throws {
        self.init(engine: try SQLiteEngine(
            path: path, seed: seed, configuration: configuration, appMigrations: appMigrations, access: access))
    }

    /// Throws ``CatalogueError/changedWhileReading(path:)`` when an SQLite catalogue read
    /// without locks (a file this user cannot write, which no other process had open) changed
    /// since it was opened: discard what was read and read again. Does nothing otherwise.
    ///
    /// ```swift
    /// let results = try catalogue.search(request)
    /// try catalogue.verifyUnchangedSinceOpened()
    /// ```
    public func verifyUnchangedSinceOpened() throws {
        try sqlite?.verifyUnchangedSinceOpened()
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
