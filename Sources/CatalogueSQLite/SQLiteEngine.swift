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
    /// Whether the catalogue is open read-only (``CatalogueAccess/readOnly``, a read-only
    /// configuration, or a file this user cannot write): writes throw
    /// ``CatalogueError/readOnly(path:)``.
    public let isReadOnly: Bool
    /// Whether this engine's open created the catalogue file at ``path``: false for a file that
    /// existed, one another process created while this open waited for it, an in-memory
    /// database and a `file:` URI. A command line tool says so to its user:
    ///
    /// ```swift
    /// let engine = try SQLiteEngine(path: "new.sqlite")
    /// if engine.createdFile { print("created a new catalogue at \(engine.path)") }
    /// ```
    public let createdFile: Bool
    /// Checks the file before the first write.
    let integrity: IntegrityGate
    /// The file before it was opened, when it is read as immutable (without locks).
    let immutableSnapshot: FileSnapshot?
    /// For a catalogue opened read-only by choice on a file this user can write: how to open a
    /// short connection that folds the keys of rows other tools wrote (see
    /// ``refoldQueuedKeys()``). Nil otherwise.
    let asideConfiguration: Configuration?
    /// The `data_version` at which queued keys were last folded (see ``refoldQueuedKeys()``).
    private let refoldedAtVersion = Locked<Int64?>(nil)

    /// How many read-only connections a file database gets at most, unless told otherwise.
    public static let defaultReaderCount = 4

    /// The page cache, in KiB, of each of a catalogue's connections when the configuration's
    /// ``Configuration/pageCacheKiB`` is nil: four times SQLite's default. A words or
    /// typo-tolerant page at 1,000,000 products reads more than SQLite's 2,000 KiB of full-text,
    /// index and table pages, which a connection that keeps them does not read from the file
    /// again at the next keystroke: both took about 5 % less time (`Catalogue.fetch` in a
    /// release loop over the benchmark's keystrokes); prefix and contains pages, which read
    /// fewer pages, did not change. The cache grows only as pages are read: a short-lived search
    /// stays as small as before, a server's four read connections hold at most 32 MiB between
    /// them, and the sectioned results controller over 1,000,000 products peaked at 51 MiB
    /// instead of 45 MiB.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.pageCacheKiB = 2_000   // SQLite's own default, for a small device
    /// let catalogue = try Catalogue(path: "catalogue.sqlite", configuration: configuration)
    /// ```
    public static let defaultPageCacheKiB = 8_192

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

    /// Opens the catalogue at `path`: creates it when missing (atomically, with the seed),
    /// migrates an existing one, and refuses anything that is not a catalogue. See
    /// ``Catalogue/init(path:seed:configuration:appMigrations:access:)``. `readerCount` bounds
    /// the read-only connections of a writable file database in WAL mode (0: reads share the
    /// writing connection). When the file is missing and another process is creating it (a
    /// first import can take seconds), the open waits for it, up to the configuration's
    /// ``Configuration/writeLockTimeout``, and calls `whileWaitingForCreation` once before it
    /// waits.
    ///
    /// ```swift
    /// let engine = try SQLiteEngine(path: "shop.sqlite", whileWaitingForCreation: {
    ///     print("waiting for another process to finish creating shop.sqlite…")
    /// })
    /// ```
    public init(
        path: String, seed: Bool = true, configuration: Configuration = Configuration(),
        appMigrations: [Migration] = [], access: CatalogueAccess = .readWrite,
        readerCount: Int = SQLiteEngine.defaultReaderCount,
        whileWaitingForCreation: () -> Void = {}
    ) throws {
        self.path = path
        var configuration = configuration
        configuration.pageCacheKiB = configuration.pageCacheKiB ?? Self.defaultPageCacheKiB
        let opened = try withoutActuallyEscaping(whileWaitingForCreation) { whileWaiting in
            try CatalogueOpener(
                path: path, seed: seed, configuration: configuration, appMigrations: appMigrations, access: access,
                whileWaitingForCreation: whileWaiting
            ).open()
        }
        self.isReadOnly = opened.isReadOnly
        self.createdFile = opened.created
        self.integrity = IntegrityGate(path: path, verified: opened.verified)
        self.immutableSnapshot = opened.immutableSnapshot
        if opened.isReadOnly, !configuration.readOnly, !CatalogueOpener.isSpecialName(path),
           DatabaseFileKind.isWritable(path) {
            var aside = configuration
            aside.createIfMissing = false
            aside.writeAheadLogging = false
            self.asideConfiguration = aside
        } else {
            self.asideConfiguration = nil
        }
        // Reads get connections of their own on a file this user can write, in WAL mode; a file
        // this user cannot write is read on its one connection, opened as its permissions allow.
        let journalMode: String? = try opened.connection.scalar("PRAGMA journal_mode")
        let writableFile = !opened.isReadOnly || asideConfiguration != nil
        let pooled = readerCount > 0 && writableFile && !opened.connection.isInMemory
            && !CatalogueOpener.isSpecialName(path) && journalMode?.lowercased() == "wal"
        var readerConfiguration = configuration
        readerConfiguration.createIfMissing = false
        self.readers = pooled ? SQLiteReaderPool(path: path, configuration: readerConfiguration, capacity: readerCount) : nil
        opened.connection.startObservingRowChanges()
        self.database = DatabaseQueue(connection: opened.connection)
        // Rows other tools wrote since the file was last opened get their keys (a write: after
        // the integrity check).
        if try database.inDatabase({ try SQLiteKeyRefolding.hasQueuedRows($0) }) {
            try refoldQueuedKeys()
        }
    }

    /// Throws ``CatalogueError/changedWhileReading(path:)`` when the catalogue is read without
    /// locks and its file changed since it was opened, so what was read may mix two states:
    /// discard it and read again. Without locks means this user cannot write the file and no
    /// other process had it open (no `-wal` file); every other catalogue is read in consistent
    /// snapshots, and this does nothing.
    ///
    /// ```swift
    /// let results = try catalogue.search(request)
    /// try catalogue.sqlite?.verifyUnchangedSinceOpened()
    /// ```
    public func verifyUnchangedSinceOpened() throws {
        guard let immutableSnapshot else { return }
        guard FileSnapshot(path) == immutableSnapshot else {
            throw CatalogueError.changedWhileReading(path: path)
        }
    }

    /// Throws ``CatalogueError/readOnly(path:)`` when the catalogue is open read-only.
    func checkWritable() throws {
        if isReadOnly { throw CatalogueError.readOnly(path: path) }
    }

    // MARK: - CatalogueEngine

    public func read<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        let writing = isWritingOnCurrentThread
        let cancellation = writing ? nil : ReadCancellation.current
        if let readers, !writing {
            // Stopped inside the transaction, so that its end is never interrupted.
            return try readers.withReader { db in
                try db.readTransaction { try Self.stopping(db, when: cancellation) { try body(db) } }
            }
        }
        return try database.read { db in try Self.stopping(db, when: cancellation) { try body(db) } }
    }

    public func reading<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        let writing = isWritingOnCurrentThread
        let cancellation = writing ? nil : ReadCancellation.current
        if let readers, !writing {
            return try readers.withReader { db in try Self.stopping(db, when: cancellation) { try body(db) } }
        }
        return try database.inDatabase { db in try Self.stopping(db, when: cancellation) { try body(db) } }
    }

    /// Runs `body` on `db` so that its statements stop once `cancellation` is set: the
    /// cancellation of the `async` read the calling thread runs (``ReadCancellation``), read
    /// before the connection is taken; nil for any other read, and for a read inside a write.
    private static func stopping<T>(_ db: Connection, when cancellation: ReadCancellation?, _ body: () throws -> T) throws -> T {
        guard let cancellation else { return try body() }
        return try db.stoppable(when: { cancellation.isCancelled }, body)
    }

    /// The first write checks the file with `PRAGMA quick_check` inside its transaction and
    /// throws ``CatalogueError/corrupt(path:detail:)`` without writing when it is damaged; a
    /// read-only catalogue throws ``CatalogueError/readOnly(path:)``.
    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        try checkWritable()
        try refuseWriteInsideRead()
        return try onWriter { db in
            try publishingChanges(of: db) {
                try db.transaction(.immediate) {
                    try integrity.verify(db)
                    let result = try body(db)
                    // Rows other tools wrote get their keys before this commit.
                    try SQLiteKeyRefolding.refoldQueued(on: db)
                    try db.rebuildGrownKeyRanges()
                    return result
                }
            }
        }
    }

    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts {
        if isReadOnly {
            guard options.dryRun else { throw CatalogueError.readOnly(path: path) }
            // A dry run needs no write access: it runs on a copy in memory.
            let scratch = try Connection(path: ":memory:")
            try Self.registerFunctions(on: scratch)
            try database.inDatabase { try $0.copy(into: scratch) }
            return try scratch.importRecords(type, from: input, options: options, progress: progress, skipped: skipped)
        }
        try refuseWriteInsideRead()
        return try onWriter { db in
            // A bulk import is not observed row by row (a hook call per row costs); it is
            // reported as a change of its tables.
            db.stopObservingRowChanges()
            defer { db.startObservingRowChanges() }
            let changesBefore = db.totalChangedRowCount
            let counts = try db.importRecords(
                type, from: input, options: options, progress: progress, skipped: skipped,
                beforeWriting: { try self.integrity.verify($0) })
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
        try refoldIfAnotherProcessCommitted()
        return try database.inDatabase { db in
            ChangeToken(try db.scalar("PRAGMA data_version") ?? 0, Int64(db.totalChangedRowCount))
        }
    }

    /// Folds queued keys when another connection committed since the last check: rows another
    /// tool wrote become searchable before they are read.
    private func refoldIfAnotherProcessCommitted() throws {
        guard !isReadOnly || asideConfiguration != nil else { return }
        let version: Int64 = try database.inDatabase { db in try db.scalar("PRAGMA data_version") ?? 0 }
        guard refoldedAtVersion.withLock({ $0 }) != version else { return }
        try refoldQueuedKeys()
        refoldedAtVersion.withLock { $0 = version }
    }

    /// Changes committed through this engine are delivered as they commit, with the rows they
    /// changed; commits by other connections and processes are found by reading
    /// `PRAGMA data_version` every `pollingInterval` (SQLite has no cross-process notification),
    /// and reported without rows (``DatabaseChange/tables`` nil).
    public func changes(pollingInterval: Duration) -> AsyncThrowingStream<DatabaseChange, any Error> {
        // The starting point is read now, not when the watching task first runs: a commit
        // made right after this call is then reported, not taken as the start.
        let start: Int64? = try? database.inDatabase { db in try db.scalar("PRAGMA data_version") }
        return changeHub.stream { [database] yield in
            func dataVersion() async throws -> Int64 {
                try await database.read { db in try db.scalar("PRAGMA data_version") ?? 0 }
            }
            var last: Int64
            if let start { last = start } else { last = try await dataVersion() }
            while true {
                try await Task.sleep(for: pollingInterval)
                let version = try await dataVersion()
                if version != last {
                    last = version
                    // Keys of rows another tool wrote are folded before anyone reads them.
                    try await self.offloadRefold()
                    yield(DatabaseChange(tables: nil, origin: .elsewhere))
                }
            }
        }
    }

    /// ``refoldIfAnotherProcessCommitted()`` off the calling task's thread.
    private func offloadRefold() async throws {
        try await offload { try self.refoldIfAnotherProcessCommitted() }
    }

    public func purgeCaches() throws {
        try database.inDatabase { $0.purgeCaches() }
        readers?.purgeCaches()
    }

    // MARK: - Opening

    /// Registers `catalogue_fold(text, options)`, which queries use for columns without a key,
    /// `catalogue_matches` (MATCHES) and `catalogue_in_matches` (``FullTextMembership``).
    static func registerFunctions(on connection: Connection) throws {
        try connection.registerFunction(SQLiteDialect.foldFunctionName, argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0].isNull ? .null : arguments[0] }
            guard case .integer(let options) = arguments[1] else { return .text(Folding.fold(text)) }
            return .text(Folding.fold(text, options: ComparisonOptions(rawValue: Int(options))))
        }
        try SQLiteRegularExpressions.register(on: connection)
        try connection.registerFullTextMembership()
    }
}
