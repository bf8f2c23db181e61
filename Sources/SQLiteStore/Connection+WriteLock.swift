import CSQLite

extension Connection {
    /// How long one round of waiting for the write lock lasts before the wait is reported and,
    /// unless ``Configuration/writeLockTimeout`` is over, another round starts.
    static let writeLockWaitRound: Duration = .milliseconds(200)

    /// Runs `BEGIN <kind> TRANSACTION`. An immediate or exclusive transaction waits for another
    /// connection's write transaction to end for up to ``Configuration/writeLockTimeout`` (nil:
    /// as long as it takes), calling `whileWaiting` once when it starts to wait; a deferred one
    /// takes no lock yet.
    ///
    /// SQLite's busy handler belongs to the connection and applies to every statement, so the
    /// wait runs in rounds of ``writeLockWaitRound`` with the busy timeout set to the round,
    /// and the connection's ``Configuration/busyTimeout`` is put back afterwards.
    func beginTransaction(_ kind: TransactionKind, whileWaiting: (() -> Void)?) throws {
        let sql = "BEGIN \(kind.rawValue) TRANSACTION"
        guard kind != .deferred else {
            try cachedStatement(sql).execute()
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        var reported = false
        defer { sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds) }
        while true {
            let remaining = configuration.writeLockTimeout.map { $0 - (clock.now - start) }
            let round = min(max(remaining ?? Self.writeLockWaitRound, .zero), Self.writeLockWaitRound)
            sqlite3_busy_timeout(handle, Configuration.milliseconds(round))
            do {
                try cachedStatement(sql).execute()
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                if let remaining, remaining <= round { throw error }
                if !reported {
                    reported = true
                    whileWaiting?()
                }
            }
        }
    }
}
