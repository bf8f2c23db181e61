import CSQLite

/// How a transaction takes its locks (see SQLite's `BEGIN`).
public enum TransactionKind: String, Sendable {
    /// Locks are taken by the first read or write.
    case deferred = "DEFERRED"
    /// The write lock is taken at once; other writers wait (up to
    /// ``Configuration/writeLockTimeout``).
    case immediate = "IMMEDIATE"
    /// Like immediate; in rollback-journal mode, readers are excluded too.
    case exclusive = "EXCLUSIVE"
}

extension Connection {
    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it throws
    /// (the error is rethrown).
    ///
    /// Inside an open transaction, this runs `body` in a savepoint instead, so transactions nest.
    ///
    /// An immediate or exclusive transaction first waits for another connection's write
    /// transaction to end, up to ``Configuration/writeLockTimeout`` (by default as long as it
    /// takes); `whileWaiting` is called once if it has to wait.
    ///
    /// ```swift
    /// try db.transaction {
    ///     try db.execute("DELETE FROM product WHERE year < ?", [2000])
    ///     try db.execute("INSERT INTO product (name, type) VALUES (?, ?)", ["iPod", "device"])
    /// }
    /// ```
    public func transaction<T>(
        _ kind: TransactionKind = .deferred, whileWaiting: (() -> Void)? = nil, _ body: () throws -> T
    ) throws -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        try beginTransaction(kind, whileWaiting: whileWaiting)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        do {
            try cachedStatement("COMMIT TRANSACTION").execute()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint: released when `body` returns, rolled back when it throws.
    /// Savepoints nest, inside or outside a transaction.
    ///
    /// ```swift
    /// try db.transaction {
    ///     try? db.savepoint { try importRow(db) }  // a failed row leaves the rest intact
    /// }
    /// ```
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "catalogue_savepoint_\(savepointDepth)"
        try cachedStatement("SAVEPOINT \(name)").execute()
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO fails when SQLite already rolled the whole transaction back (e.g. on
            // SQLITE_FULL); the body's error is the one that matters.
            if isInTransaction {
                try? cachedStatement("ROLLBACK TRANSACTION TO SAVEPOINT \(name)").execute()
                try? cachedStatement("RELEASE SAVEPOINT \(name)").execute()
            }
            throw error
        }
        try cachedStatement("RELEASE SAVEPOINT \(name)").execute()
        return result
    }

    private func rollbackIgnoringErrors() {
        if isInTransaction {
            try? cachedStatement("ROLLBACK TRANSACTION").execute()
        }
    }
}
