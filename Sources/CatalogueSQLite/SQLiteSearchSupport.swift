import CatalogueCore
import SQLiteStore

/// The SQL that makes a table of an app's own ``Record`` type searchable the way the
/// catalogue's tables are, derived from its ``RecordSchema``: the folded key columns and their
/// indexes, a unique index on the natural key, and the FTS5 table with the triggers that keep
/// it in sync. The app writes only its `CREATE TABLE` with its own columns.
///
/// ```swift
/// static let migration = Migration(identifier: "0001_city", sql: """
///     CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT NOT NULL,
///                        population INTEGER);
///     """ + SQLiteSearchSupport.sql(for: City.schema))
/// ```
///
/// What it writes, for each part of the schema:
/// - each folded column (`"name": "name_key"`): `ALTER TABLE … ADD COLUMN name_key TEXT NOT NULL
///   DEFAULT ''` (`name_key TEXT` for a column in `optionalColumns`, whose key is NULL when it
///   is) and `CREATE INDEX city_by_name_key ON city (name_key, name)`, the index a
///   `BEGINSWITH[cd]` reads in display order;
/// - the natural key: `CREATE UNIQUE INDEX city_natural_key ON city (…)`, which upserts use;
/// - ``RecordSchema/fullTextTable``: an external-content FTS5 table over
///   ``RecordSchema/fullTextColumns`` (the `unicode61` tokenizer folding case and diacritics as
///   the keys do), its insert, delete and update triggers, and a `rebuild` of existing rows;
/// - each of ``RecordSchema/substringIndexedColumns``: its trigram index
///   (``SQLiteTrigramIndex``), filled and kept in sync, which `CONTAINS[cd]` reads when the text
///   is selective, and its key range index (``SQLiteKeyRangeIndex``), which a page of
///   `CONTAINS[cd]` in key order reads.
public enum SQLiteSearchSupport {
    /// The statements, separated by newlines, each ending with `;`. `optionalColumns` names the
    /// folded columns that may be NULL: their keys may be too. (A key of a column left out is
    /// `NOT NULL`, and storing a record whose column is NULL fails.)
    ///
    /// ```swift
    /// SQLiteSearchSupport.sql(for: Peak.schema, optionalColumns: ["local_name"])
    /// // "ALTER TABLE peak ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
    /// //  … ALTER TABLE peak ADD COLUMN local_name_key TEXT; …"
    /// ```
    public static func sql(for schema: RecordSchema, optionalColumns: Set<String> = []) -> String {
        var statements: [String] = []
        for (key, source) in schema.keyColumnsInOrder {
            let column = schema.columns[source]
            let type = optionalColumns.contains(column) ? "TEXT" : "TEXT NOT NULL DEFAULT ''"
            statements.append("ALTER TABLE \(schema.table) ADD COLUMN \(key) \(type);")
            statements.append("CREATE INDEX \(schema.table)_by_\(key) ON \(schema.table) (\(key), \(column));")
        }
        if !schema.naturalKey.isEmpty {
            statements.append(
                "CREATE UNIQUE INDEX \(schema.table)_natural_key ON \(schema.table) (\(schema.naturalKey.joined(separator: ", ")));")
        }
        if let fts = schema.fullTextTable, !schema.fullTextColumns.isEmpty {
            statements += fullTextSQL(table: schema.table, fts: fts, columns: schema.fullTextColumns)
        }
        for key in schema.substringIndexedColumns {
            statements += SQLiteTrigramIndex(schema: schema, keyColumn: key).creationSQL(recordTable: schema.table)
            statements += SQLiteKeyRangeIndex(schema: schema, keyColumn: key).creationSQL()
        }
        return statements.joined(separator: "\n") + "\n"
    }

    private static func fullTextSQL(table: String, fts: String, columns: [String]) -> [String] {
        let list = columns.joined(separator: ", ")
        let new = columns.map { "new.\($0)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0)" }.joined(separator: ", ")
        return [
            """
            CREATE VIRTUAL TABLE \(fts) USING fts5 (\(list), content="\(table)", content_rowid="id", \
            tokenize='unicode61 remove_diacritics 2');
            """,
            """
            CREATE TRIGGER \(fts)_after_insert AFTER INSERT ON \(table) BEGIN
                INSERT INTO \(fts) (rowid, \(list)) VALUES (new.id, \(new));
            END;
            """,
            """
            CREATE TRIGGER \(fts)_after_delete AFTER DELETE ON \(table) BEGIN
                INSERT INTO \(fts) (\(fts), rowid, \(list)) VALUES ('delete', old.id, \(old));
            END;
            """,
            """
            CREATE TRIGGER \(fts)_after_update AFTER UPDATE OF \(list) ON \(table) BEGIN
                INSERT INTO \(fts) (\(fts), rowid, \(list)) VALUES ('delete', old.id, \(old));
                INSERT INTO \(fts) (rowid, \(list)) VALUES (new.id, \(new));
            END;
            """,
            "INSERT INTO \(fts) (\(fts)) VALUES ('rebuild');",
        ]
    }
}
