import CatalogueCore
import Foundation
import SQLiteStore


/// Indexes the new rows of a bulk import for full-text search in one statement at the end,
/// instead of one trigger call per row: for the record's FTS5 word index, each of its
/// trigram indexes (``SQLiteTrigramIndex``) and key range indexes (``SQLiteKeyRangeIndex``).
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
/// let deferrals = try FullTextDeferral.suspend(Product.self, on: db, updatedColumns: ["type", "year", "price"])
/// // … insert rows …
/// for deferral in deferrals { try deferral.resume(on: db) }
/// ```
struct FullTextDeferral {
    let triggerName: String
    let triggerSQL: String
    let catchUp: CatchUp
    let lastIDBefore: Int64

    /// How the new rows are indexed when the trigger comes back.
    enum CatchUp {
        /// One `INSERT … SELECT` into `ftsTable` of the rows of `table` with ids above the bound
        /// parameter.
        case rows(sql: String, table: String, ftsTable: String)
        /// The key range index: its keys added to their ranges, or the whole index built again
        /// when the new rows are a quarter of the table or more.
        case keyRanges(SQLiteKeyRangeIndex)

        /// The `INSERT … SELECT` that fills `ftsTable` from `columns` of the new rows of
        /// `table` (those where `indexedWhen` holds, when given).
        static func rows(table: String, ftsTable: String, columns: [String], indexedWhen: String? = nil) -> CatchUp {
            let list = columns.joined(separator: ", ")
            let condition = indexedWhen.map { " AND \($0)" } ?? ""
            return .rows(
                sql: "INSERT INTO \(ftsTable) (rowid, \(list)) SELECT id, \(list) FROM \(table) WHERE id > ?\(condition) ORDER BY id",
                table: table, ftsTable: ftsTable)
        }
    }

    /// Drops `R`'s after-insert triggers of its full-text, trigram and key range indexes, each
    /// where it is safe; returns what was done, to resume.
    static func suspend<R: Record>(_ type: R.Type, on db: Connection, updatedColumns: [String]) throws -> [FullTextDeferral] {
        let schema = R.schema
        var deferrals: [FullTextDeferral] = []
        if let ftsTable = schema.fullTextTable, !schema.fullTextColumns.isEmpty,
           let deferral = try suspend(
               table: schema.table, ftsTable: ftsTable, columns: schema.fullTextColumns,
               catchUp: .rows(table: schema.table, ftsTable: ftsTable, columns: schema.fullTextColumns),
               updatedColumns: updatedColumns, on: db) {
            deferrals.append(deferral)
        }
        for key in schema.substringIndexedColumns {
            let index = SQLiteTrigramIndex(schema: schema, keyColumn: key)
            if let deferral = try suspend(
                table: schema.table, ftsTable: index.table, columns: [key],
                catchUp: .rows(table: schema.table, ftsTable: index.table, columns: [key], indexedWhen: "\(key) <> ''"),
                updatedColumns: updatedColumns, on: db) {
                deferrals.append(deferral)
            }
            let ranges = SQLiteKeyRangeIndex(schema: schema, keyColumn: key)
            if let deferral = try suspend(
                table: schema.table, ftsTable: ranges.trigramTable, columns: [key], catchUp: .keyRanges(ranges),
                updatedColumns: updatedColumns, on: db) {
                deferrals.append(deferral)
            }
        }
        return deferrals
    }

    /// Drops the after-insert trigger that fills `ftsTable` from `columns` of `table`, when it
    /// is safe, to be resumed with `catchUp`; nil when nothing was done.
    private static func suspend(
        table: String, ftsTable: String, columns: [String], catchUp: CatchUp, updatedColumns: [String], on db: Connection
    ) throws -> FullTextDeferral? {
        guard Set(updatedColumns).isDisjoint(with: columns) else { return nil }
        let triggers = try SQLiteSchemaText.triggers(on: table, in: db)
        let normalized = triggers.map { (name: $0.name, sql: $0.sql, words: SQLiteSchemaText.words(of: $0.sql)) }
        let touchingFTS = normalized.filter { $0.words.contains(ftsTable.lowercased()) }
        let inserts = touchingFTS.filter { $0.words.contains("after insert on") }
        // An update trigger without a column list fires on every UPDATE.
        let blanketUpdates = touchingFTS.filter { $0.words.contains("update on") }
        guard inserts.count == 1, blanketUpdates.isEmpty, let trigger = inserts.first else { return nil }
        let lastID: Int64 = try db.scalar("SELECT max(id) FROM \(table)") ?? 0
        guard lastID < Int64.max / 2 else { return nil }
        try db.execute("DROP TRIGGER \(SQLiteSchemaText.quoted(trigger.name))")
        _ = try db.storedDefinition(trigger.sql, of: trigger.name)
        return FullTextDeferral(triggerName: trigger.name, triggerSQL: trigger.sql, catchUp: catchUp, lastIDBefore: lastID)
    }

    /// The new rows are at least one in this many of the table's rows: then the whole index is
    /// worked on at once (FTS5 tables filled with ``FullTextBulkLoad`` and merged at the end;
    /// key ranges built again) rather than the new rows added to it.
    static let wholeIndexShare = 4

    /// Indexes the rows inserted since ``suspend(_:on:updatedColumns:)`` and restores the trigger.
    func resume(on db: Connection) throws {
        switch catchUp {
        case .rows(let sql, let table, let ftsTable):
            // Ids are given in order, so the largest tells about how many rows are new.
            let lastID: Int64 = try db.scalar("SELECT max(id) FROM \(table)") ?? lastIDBefore
            if (lastID - lastIDBefore) * Int64(Self.wholeIndexShare) >= lastID {
                try FullTextBulkLoad.run(into: ftsTable, on: db) { try db.execute(sql, [lastIDBefore]) }
            } else {
                try db.execute(sql, [lastIDBefore])
            }
        case .keyRanges(let index):
            let added: Int = try db.scalar("SELECT count(*) FROM \(index.recordTable) WHERE id > ?", [lastIDBefore]) ?? 0
            // The ranges tell the table's size without counting its rows.
            let ranges: Int = try db.scalar("SELECT count(*) FROM \(index.rangeTable)") ?? 0
            if added * Self.wholeIndexShare >= ranges * SQLiteKeyRangeIndex.keysPerRange {
                try db.rebuildKeyRanges(index)
            } else if added > 0 {
                try db.addKeysToRanges(index, insertedAfter: lastIDBefore)
            }
        }
        try db.storedDefinition(triggerSQL, of: triggerName).execute()
    }
}
