import CSQLite

/// One open SQLite database connection.
///
/// A connection is not `Sendable`: use it from one thread at a time. To share a database across
/// threads and tasks, open a ``DatabaseQueue``, which owns a connection and serializes access.
///
/// ```swift
/// let db = try Connection(path: "catalogue.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT)")
/// try db.execute("INSERT INTO note (text) VALUES (?)", ["Bogotá"])
/// let texts = try db.fetchAll("SELECT text FROM note") { row in try row.decode(String.self, at: 0) }
/// ```
public final class Connection {
    /// The path given at open time (`":memory:"` for an in-memory database).
    public let path: String
    /// The configuration the connection was opened with.
    public let configuration: Configuration

    let handle: OpaquePointer
    private let authorizer = SchemaChangeObserver()
    /// Collects the rows statements change, while observing (``startObservingRowChanges()``).
    var rowChangeObserver: RowChangeObserver?
    private var statementCache: StatementCache
    var savepointDepth = 0
    /// Above zero inside ``readTransaction(_:)``: statements that write are refused.
    var writesForbidden = 0
    /// The full-text matches this connection's statements collected
    /// (``registerFullTextMembership()``), shared within its read transactions.
    var fullTextMatchSets: CollectedMatchSets?
    /// The tables this connection made in its `temp` schema (``fullTextVocabularyTable(of:)``).
    var temporaryTables: Set<String> = []
    /// Values computed from the database, with the change state they were computed at
    /// (``remembered(_:_:)``).
    var rememberedValues: [String: (state: RememberedState, value: Any)] = [:]
    /// What the progress handler asks while ``stoppable(when:every:_:)`` runs.
    var stopCheck: StopCheck?

    /// How many statements this connection has compiled (cached or not), since it was opened.
    ///
    /// A statement served from the cache is not compiled again, so this does not move.
    public private(set) var compiledStatementCount = 0

    /// Opens (and, unless configured otherwise, creates) the database at `path`.
    ///
    /// Throws a ``DatabaseError`` when the file cannot be opened, is not a database, or a setup
    /// pragma fails.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        self.statementCache = StatementCache(capacity: configuration.statementCacheCapacity)

        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if configuration.readOnly || configuration.immutable {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if configuration.createIfMissing { flags |= SQLITE_OPEN_CREATE }
        }
        let filename = Self.openName(path: path, configuration: configuration)
        if filename != path { flags |= SQLITE_OPEN_URI }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(filename, &opened, flags, nil)
        guard let opened else {
            throw DatabaseError(code: .SQLITE_NOMEM, message: "cannot allocate a connection to \(path)")
        }
        guard code == SQLITE_OK else {
            let error = DatabaseError(
                code: ResultCode(rawValue: sqlite3_extended_errcode(opened)),
                message: String(cString: sqlite3_errmsg(opened)) + " (\(path))")
            sqlite3_close_v2(opened)
            throw error
        }
        self.handle = opened
        sqlite3_extended_result_codes(handle, 1)
        authorizer.install(on: handle)

        do {
            sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds)
            // Reading the schema first turns "file is not a database" into an error here, at
            // open time, before any pragma could write to the file.
            _ = try scalar("SELECT count(*) FROM sqlite_master") as Int?
            if configuration.foreignKeys {
                try execute("PRAGMA foreign_keys = ON")
            }
            if let pageCacheKiB = configuration.pageCacheKiB {
                try execute("PRAGMA cache_size = \(-max(pageCacheKiB, 0))")
            }
            if configuration.writeAheadLogging, !configuration.readOnly, !configuration.immutable, !isInMemory {
                try enableWriteAheadLogging()
            }
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        if rowChangeObserver != nil { RowChangeObserver.uninstall(from: handle) }
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether this is an in-memory database.
    public var isInMemory: Bool {
        path == ":memory:" || path.isEmpty || path.hasPrefix("file::memory:")
    }

    /// The version of SQLite this connection runs on, e.g. "3.40.1".
    public static var sqliteVersion: String {
        String(cString: sqlite3_libversion())
    }

    // MARK: - Statements

    /// Compiles `sql` into a new statement the caller owns.
    ///
    /// Prefer ``cachedStatement(_:)`` for SQL that runs more than once.
    public func makeStatement(_ sql: String) throws -> Statement {
        try compile(sql, persistent: false)
    }

    /// The cached statement for `sql`, compiled on first use with `SQLITE_PREPARE_PERSISTENT`.
    ///
    /// The statement is reset and its bindings cleared before it is returned, so it can be bound
    /// anew. The cache is bounded by ``Configuration/statementCacheCapacity`` (least recently
    /// used statements are dropped), emptied by ``purgeCaches()``, and emptied whenever a
    /// statement of this connection changes the schema.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql) {
            // A statement whose rows are being read (the same SQL run inside its own row loop)
            // must not be reset under its reader: give this use a statement of its own.
            if statement.isReadingRows {
                return try compile(sql, persistent: false)
            }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try compile(sql, persistent: true)
        if !statement.changesSchema {
            statementCache.insert(statement, for: sql)
        }
        return statement
    }

    /// How many statements the cache holds now.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    /// Drops every cached statement and asks SQLite to release the memory it can, as an app does
    /// on a memory warning. The next use of a statement compiles it again.
    public func purgeCaches() {
        statementCache.removeAll()
        sqlite3_db_release_memory(handle)
    }

    func schemaDidChange() {
        statementCache.removeAll()
    }

    private func compile(_ sql: String, persistent: Bool) throws -> Statement {
        authorizer.reset()
        var statementHandle: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // The tail pointer is only valid inside withCString: check it there.
        let (code, hasMoreStatements) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, text, -1, flags, &statementHandle, &tail)
            guard code == SQLITE_OK, let tail, tail.pointee != 0 else { return (code, false) }
            return (code, Self.holdsStatement(tail, on: handle))
        }
        guard code == SQLITE_OK else {
            throw makeError(code: code, sql: sql)
        }
        guard let statementHandle else {
            throw DatabaseError(code: .SQLITE_MISUSE, message: "no statement in SQL", sql: sql)
        }
        if hasMoreStatements {
            sqlite3_finalize(statementHandle)
            throw DatabaseError(
                code: .SQLITE_MISUSE,
                message: "more than one statement; use execute(_:) without arguments for SQL scripts",
                sql: sql)
        }
        compiledStatementCount += 1
        return Statement(
            handle: statementHandle, connection: self, sql: sql,
            changesSchema: authorizer.sawSchemaChange)
    }

    /// Whether `text` (what follows a statement) holds another statement, rather than only
    /// whitespace, semicolons and comments.
    private static func holdsStatement(_ text: UnsafePointer<CChar>, on handle: OpaquePointer) -> Bool {
        var cursor: UnsafePointer<CChar>? = text
        while let current = cursor, current.pointee != 0 {
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            guard sqlite3_prepare_v3(handle, current, -1, 0, &statement, &tail) == SQLITE_OK else { return true }
            if let statement {
                sqlite3_finalize(statement)
                return true
            }
            cursor = tail
        }
        return false
    }

    // MARK: - Execution

    /// Runs `sql`. Without arguments, `sql` may hold several statements separated by `;` (a
    /// script, such as a migration); with arguments it must be one statement, served from the
    /// statement cache.
    ///
    /// ```swift
    /// try db.execute("UPDATE product SET price = ? WHERE name = ?", [499.0, "iPad"])
    /// ```
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        if arguments.isEmpty {
            try executeScript(sql)
        } else {
            let statement = try cachedStatement(sql)
            try statement.execute(arguments)
        }
    }

    private func executeScript(_ script: String) throws {
        var changedSchema = false
        defer { if changedSchema { schemaDidChange() } }
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                authorizer.reset()
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, current, -1, 0, &statementHandle, &tail)
                guard code == SQLITE_OK else {
                    throw makeError(code: code, sql: Self.firstStatement(of: current))
                }
                cursor = tail
                guard let statementHandle else { continue }  // only whitespace or a comment
                compiledStatementCount += 1
                changedSchema = changedSchema || authorizer.sawSchemaChange
                defer { sqlite3_finalize(statementHandle) }
                if writesForbidden > 0, sqlite3_stmt_readonly(statementHandle) == 0 {
                    throw Self.readOnlyError(sql: String(cString: sqlite3_sql(statementHandle)))
                }
                while true {
                    let stepCode = sqlite3_step(statementHandle)
                    if stepCode == SQLITE_DONE { break }
                    if stepCode != SQLITE_ROW {
                        let sql = String(cString: sqlite3_sql(statementHandle))
                        throw makeError(code: stepCode, sql: sql.trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                }
            }
        }
    }

    private static func firstStatement(of text: UnsafePointer<CChar>) -> String {
        let remaining = String(cString: text)
        let statement = remaining.split(separator: ";", maxSplits: 1).first.map(String.init) ?? remaining
        return statement.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The rowid of the last row inserted by this connection.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    public var changedRowCount: Int {
        Int(sqlite3_changes64(handle))
    }

    /// How many rows have changed through this connection since it was opened.
    public var totalChangedRowCount: Int {
        Int(sqlite3_total_changes64(handle))
    }

    /// Interrupts the statement running on this connection (callable from another thread).
    public func interrupt() {
        sqlite3_interrupt(handle)
    }

    // MARK: - Errors

    /// The error for a write attempted inside a read transaction.
    static func readOnlyError(sql: String) -> DatabaseError {
        DatabaseError(code: .SQLITE_READONLY, message: "attempt to write a readonly database", sql: sql)
    }

    func makeError(code: Int32, sql: String?, arguments: StatementArguments? = nil) -> DatabaseError {
        let extended = sqlite3_extended_errcode(handle)
        // Prefer the connection's extended code and message when it agrees with the code we were
        // given; otherwise (an API that returns a code without recording it on the connection,
        // such as sqlite3_create_function_v2's SQLITE_MISUSE) the connection's message is stale.
        let agrees = (extended & 0xFF) == (code & 0xFF)
        let resultCode = agrees ? extended : code
        let message = String(cString: agrees ? sqlite3_errmsg(handle) : sqlite3_errstr(code))
        return DatabaseError(
            code: ResultCode(rawValue: resultCode),
            message: message,
            sql: sql,
            arguments: configuration.publicStatementArguments ? arguments?.allValues : nil)
    }
}

private extension String {
    func trimmingCharacters(in set: WhitespaceSet) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace || first.isNewline { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace || last.isNewline { scalars.removeLast() }
        return String(scalars)
    }
}

private enum WhitespaceSet {
    case whitespacesAndNewlines
}
