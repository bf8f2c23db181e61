import SQLiteStore

extension Connection {
    /// The definition of the schema object `name` as `sqlite_master` stores it (an index's or a
    /// trigger's `sql`), compiled as one statement, to create the object again after a bulk
    /// write dropped it; throws `SQLITE_CORRUPT` ("the stored definition … holds more than one
    /// statement") for text holding more. Compile it right after the drop, to refuse such a
    /// file before any row is written, and again to run it.
    ///
    /// Why: SQLite reads only the first statement of a stored definition and ignores the rest,
    /// so a file edited to carry more (`CREATE INDEX …; ATTACH DATABASE '…' AS x; …`) opens and
    /// passes every check, and running the text as a script would run its tail too.
    ///
    /// ```swift
    /// try db.execute("DROP INDEX product_by_year")
    /// _ = try db.storedDefinition(index.sql, of: index.name)      // refused here, if at all
    /// // … the rows …
    /// try db.storedDefinition(index.sql, of: index.name).execute()
    /// ```
    func storedDefinition(_ sql: String, of name: String) throws -> Statement {
        do {
            return try makeStatement(sql)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_MISUSE {
            throw DatabaseError(
                code: .SQLITE_CORRUPT,
                message: "the stored definition of \(name) holds more than one statement, which SQLite never writes; "
                    + "the file was edited by another program and is not written to",
                sql: sql)
        }
    }
}
