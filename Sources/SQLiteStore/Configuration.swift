/// How a ``Connection`` opens and behaves.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.readOnly = true
/// configuration.busyTimeout = .seconds(10)
/// let db = try Connection(path: "catalogue.sqlite", configuration: configuration)
/// ```
public struct Configuration: Sendable, Hashable {
    /// Open the database for reading only. Writes fail with `SQLITE_READONLY`.
    public var readOnly = false
    /// Create the file when it does not exist (ignored when ``readOnly``).
    public var createIfMissing = true
    /// Switch the database to write-ahead logging, so readers and a writer do not block each
    /// other (ignored for read-only and in-memory databases).
    public var writeAheadLogging = true
    /// Enforce foreign keys (`PRAGMA foreign_keys = ON`).
    public var foreignKeys = true
    /// How long a statement waits for a lock held by another connection before failing with
    /// `SQLITE_BUSY`. Write transactions wait for ``writeLockTimeout`` instead.
    public var busyTimeout: Duration = .seconds(5)
    /// How long the start of a write transaction (``TransactionKind/immediate`` or
    /// ``TransactionKind/exclusive``) waits for another connection's write transaction to end
    /// before failing with `SQLITE_BUSY`: nil, the default, waits as long as it takes, so a
    /// second writer queues behind the first instead of failing.
    public var writeLockTimeout: Duration? = nil
    /// Open the file as immutable (SQLite's `immutable=1`): read-only, without locks and without
    /// the `-wal` and `-shm` files. Only safe while no other connection changes the file.
    public var immutable = false
    /// Never create or write the `-shm` file (SQLite's `readonly_shm=1`), for a read-only
    /// connection by a user who cannot write the database file.
    public var readOnlySharedMemory = false
    /// The most prepared statements ``Connection/cachedStatement(_:)`` keeps.
    public var statementCacheCapacity = 64
    /// The most memory, in KiB, the connection's page cache holds (`PRAGMA cache_size = -N`),
    /// filled as pages are read: pages it holds are not read from the file again. Nil, the
    /// default, keeps SQLite's (2,000 KiB). A catalogue's connections (CatalogueKit's
    /// `SQLiteEngine`) use `SQLiteEngine.defaultPageCacheKiB` when this is nil.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.pageCacheKiB = 32_768   // 32 MiB for each connection
    /// ```
    public var pageCacheKiB: Int? = nil
    /// Keep statement arguments in ``DatabaseError/arguments``. Off by default: arguments may hold
    /// user data that should not end up in logs.
    public var publicStatementArguments = false

    /// The defaults: read-write, creating a missing file, in WAL mode with foreign keys on; a
    /// write transaction waits for another one as long as it takes.
    public init() {}

    /// The busy timeout in whole milliseconds, as `sqlite3_busy_timeout` takes it.
    var busyTimeoutMilliseconds: Int32 {
        Self.milliseconds(busyTimeout)
    }

    /// `duration` in whole milliseconds, clamped to `0...Int32.max`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
