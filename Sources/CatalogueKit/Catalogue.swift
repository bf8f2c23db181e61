import Foundation

/// A catalogue database: countries and products in one SQLite file, migrated and seeded on
/// first use.
///
/// ```swift
/// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")   // created, migrated, seeded
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

    /// Opens the catalogue at `path`, creating, migrating and (when new) seeding it.
    ///
    /// Throws ``MigrationError`` when the file was made by a newer version, ``CatalogueError``
    /// when it is a directory, an empty file, not a database, or cannot be opened, and
    /// ``DatabaseError`` when reading it fails (a corrupt file); the file is left as it was.
    ///
    /// - Parameters:
    ///   - path: the database file (`":memory:"` for a private in-memory catalogue).
    ///   - seed: load the built-in countries and products into a new database.
    ///   - configuration: connection settings.
    ///   - appMigrations: an embedding app's own migrations (for its own ``Record`` types),
    ///     applied after the catalogue's and recorded in their own table, `app_migrations`, so
    ///     their numbers never collide with the library's.
    public init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = []
    ) throws {
        try Self.checkFile(at: path, configuration: configuration)
        do {
            let connection = try Connection(path: path, configuration: configuration)
            try Self.prepare(connection, seed: seed, readOnly: configuration.readOnly, appMigrations: appMigrations)
            self.database = DatabaseQueue(connection: connection)
        } catch let error as DatabaseError {
            // Not a database, corrupt, unreadable: one error naming the file.
            throw CatalogueError.cannotOpen(path: path, reason: error)
        }
    }

    /// Registers functions, then migrates and seeds (or, read-only, checks nothing is pending).
    private static func prepare(
        _ connection: Connection, seed: Bool, readOnly: Bool, appMigrations: [Migration]
    ) throws {
        try registerFunctions(on: connection)
        let migrators = [try migrator(), try Migrator(migrations: appMigrations, tableName: "app_migrations")]
        if readOnly {
            for migrator in migrators {
                if let first = try migrator.pendingMigrations(connection).first {
                    throw DatabaseError(
                        code: .SQLITE_READONLY,
                        message: "it needs migration \(first.identifier) but is open read-only")
                }
            }
            return
        }
        for migrator in migrators {
            try migrator.migrate(connection)
        }
        if seed {
            try SeedData.seedIfNeeded(connection)
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
    @discardableResult
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try database.write(body)
    }

    /// Drops cached statements and releases what memory SQLite can, as an app does on a memory
    /// warning.
    public func purgeCaches() throws {
        try database.inDatabase { $0.purgeCaches() }
    }

    /// Refuses what SQLite would misuse (a directory; an empty file, which SQLite would turn into
    /// a new database), and creates the parent directory of a new file.
    private static func checkFile(at path: String, configuration: Configuration) throws {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw CatalogueError.isDirectory(path: path) }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            if size == 0 { throw CatalogueError.emptyFile(path: path) }
        } else if !configuration.readOnly {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if !FileManager.default.fileExists(atPath: directory) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        }
    }

    static func registerFunctions(on connection: Connection) throws {
        try connection.registerFunction(foldFunctionName, argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0].isNull ? .null : arguments[0] }
            guard case .integer(let options) = arguments[1] else { return .text(Folding.fold(text)) }
            return .text(Folding.fold(text, options: ComparisonOptions(rawValue: Int(options))))
        }
    }
}
