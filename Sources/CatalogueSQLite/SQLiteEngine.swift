import CatalogueCore
import Foundation
import SQLiteStore

/// The SQLite engine: a catalogue in one database file (or in memory), the embedded default.
///
/// One connection writes (behind a ``DatabaseQueue``). Reads of a database file in
/// write-ahead-logging mode (the default) run on a small pool of read-only connections
/// (``readerCount``), in parallel with each other and beside the writer, so a long import does
/// not hold up searches; an in-memory database has one connection, which reads share. A read
/// nested in a write (a search inside `write {}`) runs on the writing connection and sees the
/// write's uncommitted rows. The file is created, migrated and seeded on first use, and refused
/// untouched when it is not a catalogue or was made by a newer version.
///
/// ```swift
/// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")
/// let engine = try #require(catalogue.sqlite)
/// try engine.database.read { db in try db.scalar("PRAGMA user_version") as Int? }
/// ```
public final class SQLiteEngine: CatalogueEngine {
    /// The database file (`":memory:"` for a private in-memory catalogue).
    public let path: String
    /// The database's writing connection, serialized. Change tokens and change polling read
    /// it too.
    public let database: DatabaseQueue
    /// The read-only connections of a file database in WAL mode; nil when reads share the
    /// writing connection (in memory, or another journal mode).
    let readers: SQLiteReaderPool?
    /// The streams of ``changes(pollingInterval:)``.
    private let changeHub = ChangeHub()

    /// How many read-only connections a file database gets at most, unless told otherwise.
    public static let defaultReaderCount = 4

    /// How many read-only connections reads may use at once (0: reads share the writing
    /// connection).
    public var readerCount: Int {
        readers?.capacity ?? 0
    }

    public var name: String { "SQLite" }
    public var location: String { path }

    /// The catalogue's migrations on SQLite, recorded in `catalogue_migrations`.
    public static func migrator() throws -> Migrator {
        try Migrator(migrations: SQLiteResources.migrations, tableName: "catalogue_migrations")
    }

    /// Opens the catalogue at `path`, creating, migrating and (when new) seeding it. See
    /// ``Catalogue/init(path:seed:configuration:appMigrations:)``. `readerCount` bounds the
    /// read-only connections of a file database in WAL mode (0: reads share the writing
    /// connection).
    public init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = [], readerCount: Int = SQLiteEngine.defaultReaderCount
    ) throws {
        self.path = path
        try Self.checkFile(at: path, configuration: configuration)
        do {
            let connection = try Connection(path: path, configuration: configuration)
            try Self.prepare(connection, seed: seed, readOnly: configuration.readOnly, appMigrations: appMigrations)
            connection.startObservingRowChanges()
            let journalMode: String? = try connection.scalar("PRAGMA journal_mode")
            let pooled = readerCount > 0 && !connection.isInMemory && !path.hasPrefix("file:")
                && journalMode?.lowercased() == "wal"
            self.readers = pooled ? SQLiteReaderPool(path: path, configuration: configuration, capacity: readerCount) : nil
            self.database = DatabaseQueue(connection: connection)
        } catch let error as DatabaseError {
            // Not a database, corrupt, unreadable: one error naming the file.
            throw CatalogueError.cannotOpen(path: path, reason: error.message)
        }
    }

    // MARK: - CatalogueEngine

    public func read<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        if let readers, !isWritingOnCurrentThread {
            return try readers.withReader { db in try db.readTransaction { try body(db) } }
        }
        return try database.read { try body($0) }
    }

    public func reading<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        if let readers, !isWritingOnCurrentThread {
            return try readers.withReader { try body($0) }
        }
        return try database.inDatabase { try body($0) }
    }

    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        try refuseWriteInsideRead()
        return try onWriter { db in
            try publishingChanges(of: db) {
                try db.transaction(.immediate) { try body(db) }
            }
        }
    }

    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts {
        try refuseWriteInsideRead()
        return try onWriter { db in
            // A bulk import is not observed row by row (a hook call per row costs); it is
            // reported as a change of its tables.
            db.stopObservingRowChanges()
            defer { db.startObservingRowChanges() }
            let changesBefore = db.totalChangedRowCount
            let counts = try db.importRecords(type, from: input, options: options, progress: progress, skipped: skipped)
            if !db.isInTransaction, db.totalChangedRowCount != changesBefore, !options.dryRun {
                let tables = [R.schema.table] + (R.schema.aliases.map { [$0.table] } ?? [])
                changeHub.publish(DatabaseChange(tables: Set(tables), origin: .thisCatalogue))
            }
            return counts
        }
    }

    /// Runs `body` on the writing connection, marking the thread as writing so that reads
    /// nested in `body` run there too (and see its uncommitted rows).
    private func onWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try database.inDatabase { db in
            let outer = WritingEngine.current
            WritingEngine.current = self
            defer { WritingEngine.current = outer }
            return try body(db)
        }
    }

    /// Whether the calling thread is inside a write of this engine.
    private var isWritingOnCurrentThread: Bool {
        WritingEngine.current === self
    }

    /// A write nested in a read fails, as it does on one connection: a read transaction
    /// forbids writes.
    private func refuseWriteInsideRead() throws {
        if let readers, readers.isReadingOnCurrentThread, !isWritingOnCurrentThread {
            throw DatabaseError(code: .SQLITE_READONLY, message: "attempt to write a readonly database (a write inside a read)")
        }
    }

    /// Runs `write` and, when it committed a transaction of its own (not nested in another
    /// write), publishes the rows it changed.
    private func publishingChanges<T>(of db: Connection, _ write: () throws -> T) throws -> T {
        guard !db.isInTransaction else { return try write() }
        _ = db.takeObservedRowChanges()
        let changesBefore = db.totalChangedRowCount
        let result: T
        do {
            result = try write()
        } catch {
            _ = db.takeObservedRowChanges()
            throw error
        }
        let rows = db.takeObservedRowChanges()
        if !rows.isEmpty {
            changeHub.publish(DatabaseChange(
                tables: Set(rows.keys), rowIDs: rows.compactMapValues(\.ids), origin: .thisCatalogue))
        } else if db.totalChangedRowCount != changesBefore {
            // Rows SQLite's hook does not report (WITHOUT ROWID tables): which, unknown.
            changeHub.publish(DatabaseChange(tables: nil, origin: .thisCatalogue))
        }
        return result
    }

    /// `PRAGMA data_version` (moves when another connection commits) and the connection's total
    /// change count (moves when this one writes).
    public func changeToken() throws -> ChangeToken {
        try database.inDatabase { db in
            ChangeToken(try db.scalar("PRAGMA data_version") ?? 0, Int64(db.totalChangedRowCount))
        }
    }

    /// Changes committed through this engine are delivered as they commit, with the rows they
    /// changed; commits by other connections and processes are found by reading
    /// `PRAGMA data_version` every `pollingInterval` (SQLite has no cross-process notification),
    /// and reported without rows (``DatabaseChange/tables`` nil).
    public func changes(pollingInterval: Duration) -> AsyncThrowingStream<DatabaseChange, any Error> {
        changeHub.stream { [database] yield in
            func dataVersion() async throws -> Int64 {
                try await database.read { db in try db.scalar("PRAGMA data_version") ?? 0 }
            }
            var last = try await dataVersion()
            while true {
                try await Task.sleep(for: pollingInterval)
                let version = try await dataVersion()
                if version != last {
                    last = version
                    yield(DatabaseChange(tables: nil, origin: .elsewhere))
                }
            }
        }
    }

    public func purgeCaches() throws {
        try database.inDatabase { $0.purgeCaches() }
        readers?.purgeCaches()
    }

    // MARK: - Opening

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
            try SQLiteSeeding.seedIfNeeded(connection)
        }
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

    /// Registers `catalogue_fold(text, options)`, which queries use for columns without a key.
    static func registerFunctions(on connection: Connection) throws {
        try connection.registerFunction(SQLiteDialect.foldFunctionName, argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0].isNull ? .null : arguments[0] }
            guard case .integer(let options) = arguments[1] else { return .text(Folding.fold(text)) }
            return .text(Folding.fold(text, options: ComparisonOptions(rawValue: Int(options))))
        }
    }
}
