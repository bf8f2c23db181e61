import CSQLite

extension Connection {
    /// Runs `body` with SQLite asking `shouldStop` every `instructions` virtual-machine
    /// instructions of the statements it runs (`sqlite3_progress_handler`); once it answers
    /// true, the running statement fails with `SQLITE_INTERRUPT` (a read is only stopped, a
    /// write inside a transaction is rolled back by SQLite), as does any later statement of
    /// `body` that runs as many instructions; a shorter statement is never asked about. Nested
    /// calls keep the outermost check; the handler is removed when it ends.
    ///
    /// ```swift
    /// let deadline = ContinuousClock.now + .milliseconds(100)   // a time limit, for example
    /// let count: Int? = try db.stoppable(when: { ContinuousClock.now > deadline }) {
    ///     try db.scalar("SELECT count(*) FROM product WHERE name LIKE '%a%'")
    /// }
    /// ```
    public func stoppable<T>(
        when shouldStop: @escaping @Sendable () -> Bool, every instructions: Int32 = 1_000, _ body: () throws -> T
    ) rethrows -> T {
        guard stopCheck == nil else { return try body() }
        let check = StopCheck(shouldStop)
        stopCheck = check
        sqlite3_progress_handler(handle, instructions, { context in
            guard let context else { return 0 }
            return Unmanaged<StopCheck>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(check).toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            stopCheck = nil
        }
        return try body()
    }
}

/// The question a connection's progress handler asks (``Connection/stoppable(when:every:_:)``),
/// kept alive by the connection while the handler may call it.
final class StopCheck {
    let shouldStop: @Sendable () -> Bool

    init(_ shouldStop: @escaping @Sendable () -> Bool) {
        self.shouldStop = shouldStop
    }
}
