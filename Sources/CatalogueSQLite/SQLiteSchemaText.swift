import SQLiteStore

/// The text of schema objects as CatalogueKit writes and reads it: identifiers quoted for SQL,
/// and the SQL that `sqlite_master` stores (a table's triggers), reduced to its words for
/// comparison.
///
/// ```swift
/// SQLiteSchemaText.quoted("product")  // "\"product\""
/// SQLiteSchemaText.words(of: "CREATE TRIGGER t\n  AFTER INSERT ON product")  // "create trigger t after insert on product"
/// ```
enum SQLiteSchemaText {
    /// `identifier` in double quotes, with its own double quotes doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The triggers on `table`, with the SQL that created them.
    static func triggers(on table: String, in db: Connection) throws -> [(name: String, sql: String)] {
        try db.fetchAll("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", [table]) {
            (name: try $0.decode(String.self, at: 0), sql: try $0.decode(String.self, at: 1))
        }
    }

    /// `sql` lowercased, with each run of spaces, tabs and line breaks as one space: stored SQL
    /// that other tools may have written with other spacing, ready to search for a phrase.
    static func words(of sql: String) -> String {
        sql.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
