import CSQLite

/// The database's change state as one connection sees it: `PRAGMA data_version` (moves when
/// another connection commits), `PRAGMA schema_version` (moves with every schema change, this
/// connection's too) and this connection's total of changed rows.
struct RememberedState: Equatable {
    let dataVersion: Int64
    let schemaVersion: Int64
    let changedRows: Int64
}

extension Connection {
    /// The value `compute` returns, remembered under `key` until the database changes: another
    /// connection commits, or this one changes a row or the schema. Inside a write transaction
    /// nothing is remembered or reused (a rollback would not move the change state back).
    ///
    /// For per-keystroke lookups whose answer only changes with the data: whether a table
    /// exists, the words of a full-text index.
    ///
    /// ```swift
    /// let exists = try db.remembered("table product_fts") {
    ///     try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'product_fts'") as Int? != nil
    /// }
    /// ```
    public func remembered<T>(_ key: String, _ compute: () throws -> T) throws -> T {
        guard sqlite3_txn_state(handle, nil) != SQLITE_TXN_WRITE else {
            rememberedValues.removeAll()
            return try compute()
        }
        let versions = try fetchAll(
            "SELECT (SELECT data_version FROM pragma_data_version), (SELECT schema_version FROM pragma_schema_version)"
        ) { row in (try row.decode(Int64.self, at: 0), try row.decode(Int64.self, at: 1)) }
        let state = RememberedState(
            dataVersion: versions.first?.0 ?? 0, schemaVersion: versions.first?.1 ?? 0,
            changedRows: sqlite3_total_changes64(handle))
        if let entry = rememberedValues[key], entry.state == state, let value = entry.value as? T {
            return value
        }
        let value = try compute()
        if rememberedValues.count >= Self.rememberedValueLimit { rememberedValues.removeAll() }
        rememberedValues[key] = (state, value)
        return value
    }

    /// The most values a connection remembers; beyond it, it forgets them all and starts again.
    static let rememberedValueLimit = 256
}
