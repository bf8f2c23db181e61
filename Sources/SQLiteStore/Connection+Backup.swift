import CSQLite

extension Connection {
    /// Copies this whole database, as of one consistent snapshot, into `destination` (replacing
    /// what it holds), with SQLite's online backup API. Neither file is locked for longer than
    /// the copy.
    ///
    /// ```swift
    /// let scratch = try Connection(path: ":memory:")
    /// try db.copy(into: scratch)      // e.g. to try out writes on a file this user cannot write
    /// ```
    public func copy(into destination: Connection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.makeError(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        let code = sqlite3_backup_step(backup, -1)
        // finish reports the step's error too, with its message on the destination connection.
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            throw destination.makeError(code: finish != SQLITE_OK ? finish : code, sql: nil)
        }
        destination.schemaDidChange()
    }
}
