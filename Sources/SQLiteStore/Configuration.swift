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
    /// `SQLITE_BUSY`.
    public var busyTimeout: Duration = .seconds(5)
    /// The most prepared statements ``Connection/cachedStatement(_:)`` keeps.
    public var statementCacheCapacity = 64
    /// Keep statement arguments in ``DatabaseError/arguments``. Off by default: arguments may hold
    /// user data that should not end up in logs.
    public var publicStatementArguments = false

    public init() {}

    /// The busy timeout in whole milliseconds, as `sqlite3_busy_timeout` takes it.
    var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
