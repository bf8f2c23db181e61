import CatalogueCore
import Foundation
import SQLiteStore


/// Indexes the new rows of a bulk import for full-text search in one statement at the end,
/// instead of one trigger call per row.
///
/// Why: inside a transaction, each single-row INSERT opens a statement savepoint (the FTS5
/// trigger may abort it), and FTS5 flushes its pending terms to a new segment at every
/// savepoint: one segment per row, merged again and again. That costs about 35 µs a row, three
/// times the whole rest of an import. So the import drops the table's after-insert trigger in
/// its transaction, and before committing inserts the full-text entries of every new row
/// (`id` above the largest id before the import) with one `INSERT … SELECT`, then creates the
/// trigger again from its stored SQL. The schema and the full-text index end exactly as with
/// the trigger; a rolled-back import (abort, dry run) leaves the trigger as it was.
///
/// Only done when it is safe: the table's after-insert trigger is found (exactly one), no update
/// trigger would touch the full-text entry of a row the import inserted (the import's UPDATE does
/// not assign a full-text column, and no trigger fires on every UPDATE), and ids are far from
/// their maximum, so new rows take ids above the old ones.
///
/// ```swift
/// let deferral = try FullTextDeferral.suspend(Product.self, on: db, updatedColumns: ["type", "year", "price"])
/// // … insert rows …
/// try deferral?.resume(on: db)
/// ```
struct FullTextDeferral {
    let triggerName: String
    let triggerSQL: String
    let catchUpSQL: String
    let lastIDBefore: Int64

    /// Drops `R`'s after-insert full-text trigger, when it is safe; nil when nothing was done.
    static func suspend<R: Record>(_ type: R.Type, on db: Connection, updatedColumns: [String]) throws -> FullTextDeferral? {
        let schema = R.schema
        guard let ftsTable = schema.fullTextTable, !schema.fullTextColumns.isEmpty,
              Set(updatedColumns).isDisjoint(with: schema.fullTextColumns)
        else { return nil }
        let triggers = try db.fetchAll(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", [schema.table]
        ) { (name: try $0.decode(String.self, at: 0), sql: try $0.decode(String.self, at: 1)) }
        let normalized = triggers.map { (name: $0.name, sql: $0.sql, words: Self.words(of: $0.sql)) }
        let touchingFTS = normalized.filter { $0.words.contains(ftsTable.lowercased()) }
        let inserts = touchingFTS.filter { $0.words.contains("after insert on") }
        // An update trigger without a column list fires on every UPDATE.
        let blanketUpdates = touchingFTS.filter { $0.words.contains("update on") }
        guard inserts.count == 1, blanketUpdates.isEmpty, let trigger = inserts.first else { return nil }
        let lastID: Int64 = try db.scalar("SELECT max(id) FROM \(schema.table)") ?? 0
        guard lastID < Int64.max / 2 else { return nil }
        try db.execute("DROP TRIGGER \(quoted(trigger.name))")
        let columns = schema.fullTextColumns.joined(separator: ", ")
        return FullTextDeferral(
            triggerName: trigger.name, triggerSQL: trigger.sql,
            catchUpSQL: "INSERT INTO \(ftsTable) (rowid, \(columns)) SELECT id, \(columns) FROM \(schema.table) WHERE id > ? ORDER BY id",
            lastIDBefore: lastID)
    }

    /// Indexes the rows inserted since ``suspend(_:on:updatedColumns:)`` and restores the trigger.
    func resume(on db: Connection) throws {
        try db.execute(catchUpSQL, [lastIDBefore])
        try db.execute(triggerSQL)
    }

    /// Lowercased SQL with runs of whitespace as one space, for matching phrases.
    private static func words(of sql: String) -> String {
        sql.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
