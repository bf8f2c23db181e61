import CSQLite

extension Connection {
    /// The name of an `fts5vocab` table over the FTS5 table `table` of the main database, in
    /// this connection's `temp` schema (one row per indexed word: `term`, `doc`, `cnt`), made
    /// on first use.
    ///
    /// Allowed inside ``readTransaction(_:)`` and on read-only or immutable connections: the
    /// `temp` schema belongs to this connection and is not the database file, which stays
    /// untouched. Made without purging the statement cache (SQLite re-prepares a statement
    /// whose schema changed by itself).
    ///
    /// ```swift
    /// let vocabulary = try db.fullTextVocabularyTable(of: "product_fts")
    /// let words = try db.fetchAll("SELECT term FROM temp.\(vocabulary) WHERE term >= ? AND term < ?", ["l", "m"]) {
    ///     try $0.decode(String.self, at: 0)
    /// }
    /// ```
    public func fullTextVocabularyTable(of table: String) throws -> String {
        let name = table + "_vocabulary"
        if temporaryTables.contains(name) { return name }
        func doubling(_ quote: Character, in text: String) -> String {
            text.split(separator: quote, omittingEmptySubsequences: false).joined(separator: String([quote, quote]))
        }
        let sql = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.\"\(doubling("\"", in: name))\" "
            + "USING fts5vocab(main, '\(doubling("'", in: table))', row)"
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw makeError(code: prepared, sql: sql) }
        defer { sqlite3_finalize(statement) }
        let stepped = sqlite3_step(statement)
        guard stepped == SQLITE_DONE else { throw makeError(code: stepped, sql: sql) }
        temporaryTables.insert(name)
        return name
    }
}
