import CatalogueCore
import SQLiteStore

/// The keys of an app's own tables folded again when typographic apostrophes and quotation
/// marks began to fold to ASCII (``Folding/quoteMarks``). Migration `0010_quote_folding` folds
/// the catalogue's own tables' keys in SQL; it cannot know an app's tables, so when it is about
/// to be applied, this folds theirs: every table's column named after another column with
/// `_key` (`name` and `name_key`, as ``SQLiteSearchSupport`` makes them).
///
/// A key is rewritten only where it holds a mark and folds to what its value folds to, that is
/// where it is the key the library wrote before: a column that merely ends in `_key` keeps what
/// it holds.
///
/// ```swift
/// try db.transaction(.immediate) { try SQLiteQuoteFolding.refoldAppKeys(on: db) }
/// ```
enum SQLiteQuoteFolding {
    /// The catalogue's migration that folds its own tables' keys.
    static let migrationIdentifier = "0010_quote_folding"

    /// Folds the keys of the app's tables that hold a mark, in the caller's transaction;
    /// returns how many rows changed. Needs the catalogue's functions (`catalogue_fold`).
    @discardableResult
    static func refoldAppKeys(on db: Connection) throws -> Int {
        let tables: [String] = try db.fetchAll("""
            SELECT name FROM sqlite_master
            WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
            ORDER BY name
            """) { try $0.decode(String.self, at: 0) }
        let pattern = "*[" + String(Folding.quoteMarks.keys.map(Character.init)) + "]*"
        let fold = SQLiteDialect.foldFunctionName
        var changed = 0
        let catalogueTables = CatalogueEntity.catalogueTables
        for table in tables where !catalogueTables.contains(table) {
            let columns: [String] = try db.fetchAll("SELECT name FROM pragma_table_info(?)", [table]) { try $0.decode(String.self, at: 0) }
            let names = Set(columns)
            for column in columns where names.contains(column + "_key") {
                let (value, key) = (SQLiteSchemaText.quoted(column), SQLiteSchemaText.quoted(column + "_key"))
                try db.execute("""
                    UPDATE \(SQLiteSchemaText.quoted(table)) SET \(key) = \(fold)(\(value), 3)
                    WHERE \(key) GLOB ? AND \(fold)(\(key), 3) = \(fold)(\(value), 3)
                    """, [pattern])
                changed += db.changedRowCount
            }
        }
        return changed
    }
}
