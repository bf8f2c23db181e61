#if PostgreSQL
import CatalogueCore

/// The keys of an app's own tables folded again when typographic apostrophes and quotation
/// marks began to fold to ASCII (``Folding/quoteMarks``), as ``PostgresMigrator`` applies
/// `0007_quote_folding`, in its transaction. The migration folds the catalogue's own tables'
/// keys in SQL; it cannot know an app's tables, so this folds theirs: in the catalogue's schema,
/// every `text` column whose name is another column's (`text` or `varchar`) with `_key` after
/// it (`name_key` beside `name`, as ``PostgresSearchSupport`` makes them).
///
/// A key is rewritten only where it holds a mark and folds to what its value folds to, that is
/// where it is the key the library wrote before (PostgreSQL cannot fold as the library does, so
/// the rows holding a mark are read and compared here): a column that merely ends in `_key`
/// keeps what it holds.
///
/// ```swift
/// if migration.identifier == PostgresQuoteFolding.migrationIdentifier { try PostgresQuoteFolding.refoldAppKeys(runner) }
/// ```
enum PostgresQuoteFolding {
    /// The catalogue's migration that folds its own tables' keys.
    static let migrationIdentifier = "0007_quote_folding"

    /// Folds the keys of the app's tables that hold a mark; returns how many rows changed.
    @discardableResult
    static func refoldAppKeys(_ runner: PostgresStatementRunner) throws -> Int {
        let pairsSQL = """
            SELECT v.table_name, v.column_name FROM information_schema.columns v
            JOIN information_schema.columns k ON k.table_schema = v.table_schema AND k.table_name = v.table_name
                AND k.column_name = v.column_name || '_key' AND k.data_type = 'text'
            JOIN information_schema.tables t ON t.table_schema = v.table_schema AND t.table_name = v.table_name
                AND t.table_type = 'BASE TABLE'
            WHERE v.table_schema = current_schema() AND v.data_type IN ('text', 'character varying', 'character')
            ORDER BY v.table_name, v.ordinal_position
            """
        var pairs: [(table: String, column: String)] = []
        for row in try runner.rows(SQLFragment(pairsSQL)) {
            let cells = PostgresRecordRow(row, sql: pairsSQL)
            pairs.append((try cells.decodeText(at: 0), try cells.decodeText(at: 1)))
        }
        let marks = "[" + String(Folding.quoteMarks.keys.map(Character.init)) + "]"
        var changed = 0
        let catalogueTables = CatalogueEntity.catalogueTables
        for (table, column) in pairs where !catalogueTables.contains(table) {
            let (name, value, key) = (quoted(table), quoted(column), quoted(column + "_key"))
            let sql = "SELECT ctid::text, \(value), \(key) FROM \(name) WHERE \(key) ~ $1"
            for row in try runner.rows(SQLFragment(sql, [.text(marks)])) {
                let cells = PostgresRecordRow(row, sql: sql)
                guard let text = try cells.decodeOptionalText(at: 1), let stored = try cells.decodeOptionalText(at: 2) else { continue }
                let folded = Folding.fold(text)
                guard stored != folded, Folding.fold(stored) == folded else { continue }
                try runner.execute("UPDATE \(name) SET \(key) = $1 WHERE ctid = $2::tid", [.text(folded), .text(try cells.decodeText(at: 0))])
                changed += 1
            }
        }
        return changed
    }

    /// `identifier` as a quoted SQL identifier.
    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
#endif
