import Foundation

/// A catalogue database: countries and products in one SQLite file, created and seeded on
/// first use, migrated when an older version made it.
///
/// ```swift
/// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")   // created and seeded on first use
/// let page = try catalogue.search(Search(entity: .countries, scope: .capital, text: "bog"))
/// page.countries.first?.name  // "Colombia"
/// ```
///
/// A `Catalogue` is `Sendable`: share one across threads and tasks. It owns one connection
/// behind a serial queue; ``read(_:)`` and ``write(_:)`` give closures that connection.
public final class Catalogue: Sendable {
    /// The database.
    public let database: DatabaseQueue
    /// The database path.
    public var path: String { database.path }
    /// Section information shared by sectioned results controllers with a cache name.
    let sectionInfoCache = SectionInfoCache()

    /// Name of the SQL function that folds text on this catalogue's connections:
    /// `catalogue_fold(text, options)`, options 1 = case, 2 = diacritics, 3 = both. Used in
    /// queries on columns without a stored key; never in the schema.
    public static let foldFunctionName = "catalogue_fold"

    /// The migrator with the built-in migrations.
    public static func migrator() throws -> Migrator {
        try Migrator(migrations: CatalogueResources.migrations, tableName: "catalogue_migrations")
    }

    /// Whether the catalogue is open read-only (``CatalogueAccess/readOnly``, a read-only
    /// configuration, or a file this user cannot write): writes throw
    /// ``CatalogueError/readOnly(path:)``.
    public let isReadOnly: Bool
    /// Checks the file before the first write.
    let integrity: IntegrityGate
    /// The file before it was opened, when it is read as immutable (without locks).
    let immutableSnapshot: FileSnapshot?

    /// Opens the catalogue at `path`: creates it when missing (atomically, with the seed),
    /// migrates an existing one, and refuses anything that is not a catalogue.
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
    public init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = [], access: CatalogueAccess = .readWrite
    ) throws {
        let opened = try CatalogueOpener(
            path: path, seed: seed, configuration: configuration, appMigrations: appMigrations, access: access
        ).open()
        self.database = DatabaseQueue(connection: opened.connection)
        self.isReadOnly = opened.isReadOnly
        self.integrity = IntegrityGate(path: path, verified: opened.verified)
        self.immutableSnapshot = opened.immutableSnapshot
    }

    /// Throws ``CatalogueError/changedWhileReading(path:)`` when the catalogue is read without
    /// locks and its file changed since it was opened, so what was read may mix two states:
    /// discard it and read again. Without locks means this user cannot write the file and no
    /// other process had it open (no `-wal` file); every other catalogue is read in consistent
    /// snapshots, and this does nothing.
    ///
    /// ```swift
    /// let results = try catalogue.search(request)
    /// try catalogue.verifyUnchangedSinceOpened()
    /// ```
    public func verifyUnchangedSinceOpened() throws {
        guard let immutableSnapshot else { return }
        guard FileSnapshot(path) == immutableSnapshot else {
            throw CatalogueError.changedWhileReading(path: path)
        }
    }

    /// Runs `body` in a read-only transaction (one consistent snapshot).
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try database.read(body)
    }

    /// Runs `body` in a write transaction: all of it lands, or none of it when it throws.
    ///
    /// ```swift
    /// try catalogue.write { db in
    ///     try db.upsert(Product(name: "iPad Air", type: "device", year: 2013, price: 499))
    /// }
    /// ```
    ///
    /// The first write of a ``Catalogue`` checks the file with `PRAGMA quick_check` inside its
    /// transaction, and throws ``CatalogueError/corrupt(path:detail:)`` without writing when the
    /// file is damaged; a read-only catalogue throws ``CatalogueError/readOnly(path:)``.
    @discardableResult
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkWritable()
        return try database.write { db in
            try integrity.verify(db)
            return try body(db)
        }
    }

    /// Throws ``CatalogueError/readOnly(path:)`` when the catalogue is open read-only.
    func checkWritable() throws {
        if isReadOnly { throw CatalogueError.readOnly(path: path) }
    }

    /// Drops cached statements and releases what memory SQLite can, as an app does on a memory
    /// warning.
    public func purgeCaches() throws {
        try database.inDatabase { $0.purgeCaches() }
    }

    static func registerFunctions(on connection: Connection) throws {
        try connection.registerFunction(foldFunctionName, argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0].isNull ? .null : arguments[0] }
            guard case .integer(let options) = arguments[1] else { return .text(Folding.fold(text)) }
            return .text(Folding.fold(text, options: ComparisonOptions(rawValue: Int(options))))
        }
    }
}
