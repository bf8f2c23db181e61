import Dispatch

/// The owner of one ``Connection``: every access runs on its serial queue, so a database can be
/// shared by threads and tasks.
///
/// `write` runs its closure in an immediate transaction (committed on return, rolled back on a
/// thrown error); `read` runs it in a read-only transaction, so it sees one consistent snapshot.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "catalogue.sqlite")
/// try queue.write { db in
///     try db.execute("INSERT INTO note (text) VALUES (?)", ["hello"])
/// }
/// let count: Int? = try queue.read { db in try db.scalar("SELECT count(*) FROM note") }
/// ```
///
/// The methods are reentrant: called from inside another's closure (a search inside a write),
/// they run on the connection already in use, inside the open transaction (a nested `write`
/// becomes a savepoint; a `write` inside a `read` fails with `SQLITE_READONLY`).
public final class DatabaseQueue: Sendable {
    /// The database path.
    public let path: String

    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Bool>()
    // Only touched on `queue`.
    private nonisolated(unsafe) let connection: Connection

    /// Opens the database at `path`.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.connection = try Connection(path: path, configuration: configuration)
        self.queue = DispatchQueue(label: "SQLiteStore.DatabaseQueue")
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Takes ownership of an open connection. Do not use `connection` directly afterwards.
    public init(connection: Connection) {
        self.path = connection.path
        self.connection = connection
        self.queue = DispatchQueue(label: "SQLiteStore.DatabaseQueue")
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Runs `body` with the connection, outside of any transaction (for pragmas, VACUUM, or
    /// transactions you manage yourself).
    public func inDatabase<T>(_ body: (Connection) throws -> T) throws -> T {
        if DispatchQueue.getSpecific(key: queueKey) != nil {
            // Already on this queue: a nested call, from inside one of these methods' closures.
            return try body(connection)
        }
        return try queue.sync { try body(connection) }
    }

    /// Runs `body` in a read-only transaction: it sees one snapshot of the database, and any
    /// attempt to write fails with `SQLITE_READONLY`.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try inDatabase { db in
            try db.readTransaction { try body(db) }
        }
    }

    /// Runs `body` in an immediate transaction: committed when `body` returns, rolled back when
    /// it throws, so a thrown error leaves the database unchanged.
    @discardableResult
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try inDatabase { db in
            try db.transaction(.immediate) { try body(db) }
        }
    }

    /// Async form of ``read(_:)``, which does not block the calling thread.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await onQueue { db in try db.readTransaction { try body(db) } }
    }

    /// Async form of ``write(_:)``, which does not block the calling thread.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await onQueue { db in try db.transaction(.immediate) { try body(db) } }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(self.connection) })
            }
        }
    }
}

extension Connection {
    /// Runs `body` in a deferred transaction in which statements that write fail with
    /// `SQLITE_READONLY`. Nested inside another transaction, it only forbids writes.
    ///
    /// Writes are refused per statement (`sqlite3_stmt_readonly`), not with
    /// `PRAGMA query_only`: changing a flag pragma expires every prepared statement, so cached
    /// statements would be re-prepared on each read.
    ///
    /// A read transaction this begins reads one snapshot and writes nothing, so the full-text
    /// matches one of its statements collects (``FullTextMembership``) are taken by the next
    /// instead of read again, until it ends.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        writesForbidden += 1
        defer { writesForbidden -= 1 }
        guard !isInTransaction, let sets = fullTextMatchSets else { return try transaction(.deferred, body) }
        return try transaction(.deferred) {
            sets.beginSharing()
            defer { sets.endSharing() }
            return try body()
        }
    }
}
