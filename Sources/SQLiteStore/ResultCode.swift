import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// Result codes match errors in `catch` clauses, whether the pattern is primary or extended:
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO country (code, name) VALUES ('FR', 'France')")
/// } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
///     print("already there")
/// } catch ResultCode.SQLITE_BUSY {
///     print("locked by another process")
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as returned by the SQLite C API.
    public let rawValue: Int32

    /// The code whose number is `rawValue`, primary or extended.
    ///
    /// ```swift
    /// ResultCode(rawValue: 2067) == .SQLITE_CONSTRAINT_UNIQUE  // true
    /// ```
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits of an extended code (`SQLITE_CONSTRAINT` for
    /// `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is an extended code rather than a primary one.
    public var isExtended: Bool {
        rawValue > 0xFF
    }

    /// SQLite's English description of the code, e.g. "constraint failed".
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// Matches an error against a code. A primary pattern matches every extended code under it;
    /// an extended pattern matches only itself.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern.isExtended
            ? pattern == error.extendedResultCode
            : pattern == error.resultCode
    }

    // Primary result codes.

    /// Success.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// A generic error, where no more specific code applies (an SQL syntax error, a missing table).
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// A malfunction inside SQLite itself.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// The access mode asked for a new database file could not be given.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// An operation was abandoned before it finished, such as a statement whose transaction
    /// was rolled back.
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// Another connection holds a lock on the database file (a writer, here or in another
    /// process), and the wait for it ran out.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// A conflict within the same connection (or shared cache), such as dropping a table a
    /// running statement reads.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// SQLite could not allocate the memory it needed.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// A write to a database that cannot be written: opened read-only, or a file this
    /// process may not write.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// The operation was stopped by `sqlite3_interrupt` (``Connection/interrupt()``).
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// The operating system reported an input or output error.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// The database file is damaged.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// An unknown file-control operation or virtual file system was asked for.
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// A write failed because the disk (or the temporary directory) is full.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// SQLite could not open a file: the database, its journal, or a temporary file.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// A problem with the locking protocol of WAL mode's shared memory.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// Not used by SQLite today.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// The schema changed between preparing and running a statement (SQLite prepares it
    /// again, so this is rarely seen).
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// A text or blob is larger than SQLite allows.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// A constraint failed: UNIQUE, NOT NULL, CHECK, a foreign key or a trigger's `RAISE`
    /// (the extended code says which).
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// A value of the wrong type, such as a rowid that is not an integer.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// The C API was used in a way SQLite does not support.
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// The file is too large for a system without large-file support.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// An authorizer callback refused the statement.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// Not used by SQLite today.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// A parameter or column index outside the statement's range.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// The file is not an SQLite database.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// A notice passed to the error log callback; not an error.
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// A warning passed to the error log callback; not an error.
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// `sqlite3_step` has a row ready.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// `sqlite3_step` has finished the statement.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // Extended result codes this project meets.

    /// A read transaction in WAL mode cannot become a write transaction: another connection
    /// committed since it began.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    /// A blocking lock on the database file timed out.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 5 | (3 << 8))
    /// The database file was moved or deleted while open, so it can no longer be written.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    /// A read returned fewer bytes than asked for: the file is shorter than SQLite expected.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    /// The path names a directory, not a file.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    /// A `CHECK` constraint failed.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// A foreign key constraint failed.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// A `NOT NULL` constraint failed.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// A `PRIMARY KEY` constraint failed: the key is taken.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// A trigger's `RAISE` function refused the change.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// A `UNIQUE` constraint failed: the value is taken.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
}
