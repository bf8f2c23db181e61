import Foundation

/// A type stored as rows of one table, which fetch requests, searches, writes and sectioned
/// results work on.
///
/// `Country` and `Product` conform; so can an app's own type, with a migration that creates its
/// table (an `id INTEGER PRIMARY KEY`, its columns, and a `*_key` column for each folded column):
///
/// ```swift
/// struct City: Record {
///     static let schema = RecordSchema(
///         table: "city", columns: ["name", "country_code"], naturalKey: ["name", "country_code"],
///         foldedColumns: ["name": "name_key"])
///     var id: Int64?
///     var name: String
///     var countryCode: String
///
///     init(row: some DatabaseRow) throws {
///         id = try row.decode(at: 0)
///         name = try row.decode(at: 1)
///         countryCode = try row.decode(at: 2)
///     }
///     var databaseValues: [DatabaseValue] { [.text(name), .text(countryCode)] }
/// }
/// ```
public protocol Record: Sendable {
    /// The table, its columns and its search keys.
    static var schema: RecordSchema { get }

    /// The row id, nil until the record is inserted.
    var id: Int64? { get set }

    /// Decodes a record from a row whose columns are `id` followed by `schema.columns`, in order.
    /// The row comes from whichever engine the catalogue runs on.
    init(row: some DatabaseRow) throws

    /// The values of `schema.columns`, in order. Derived columns (folded keys) are not included:
    /// the library computes them.
    var databaseValues: [DatabaseValue] { get }

    /// Extra names the record is searchable by (stored in `schema.aliases`), if it has any.
    var aliases: [String] { get }
}

extension Record {
    public var aliases: [String] { [] }

    /// The values an engine writes for this record, in ``RecordSchema/writtenColumns`` order:
    /// ``databaseValues``, then each folded key, computed in Swift (so every engine stores the
    /// same keys).
    ///
    /// ```swift
    /// Product(name: "Crème", type: "Kitchen").writtenValues
    /// // ["Crème", "Kitchen", NULL, NULL, "creme", "kitchen"]
    /// ```
    public var writtenValues: [DatabaseValue] {
        let values = databaseValues
        precondition(values.count == Self.schema.columns.count,
                     "\(Self.self).databaseValues has \(values.count) values for \(Self.schema.columns.count) columns")
        return values + Self.schema.keyColumnsInOrder.map { Folding.key(for: values[$0.source]) }
    }
}

/// The storage of a ``Record`` type: table, columns, keys and search support.
///
/// A class, so the many reads of `R.schema` while compiling a request share one instance.
public final class RecordSchema: Sendable {
    /// The table name.
    public let table: String
    /// The stored columns, in the order of ``Record/databaseValues``, without `id` or key columns.
    public let columns: [String]
    /// The columns that identify a record for an upsert (`code` for countries), using key
    /// columns where the natural key is compared folded (`type_key`). A key with a NULL column
    /// matches no record, as in a unique index: such a record is always inserted.
    public let naturalKey: [String]
    /// Column → its folded key column (`"name": "name_key"`), computed on every write: the
    /// folded text, NULL when the column is.
    public let foldedColumns: [String: String]
    /// The FTS5 table indexing this table on SQLite (external content, kept in sync by
    /// triggers); with ``fullTextColumns``, what gives the type words search on every engine
    /// (on PostgreSQL a `tsvector` column per full-text column, `name_words`, which the library
    /// writes).
    public let fullTextTable: String?
    /// The columns words search reads, in order (the FTS5 table's columns; for highlighting).
    public let fullTextColumns: [String]
    /// The alias table, when records have ``Record/aliases``.
    public let aliases: AliasTable?
    /// The key columns (values of ``foldedColumns``) whose `CONTAINS[cd]` search an engine may
    /// answer through a substring index: on SQLite an FTS5 `trigram` table named
    /// `table_keycolumn_trigram`, which the engine uses when the text is selective enough.
    public let substringIndexedColumns: [String]

    /// Describes a table. Key columns in `naturalKey` must appear in `foldedColumns`' values.
    public init(
        table: String,
        columns: [String],
        naturalKey: [String],
        foldedColumns: [String: String] = [:],
        fullTextTable: String? = nil,
        fullTextColumns: [String] = [],
        aliases: AliasTable? = nil,
        substringIndexedColumns: [String] = []
    ) {
        self.table = table
        self.columns = columns
        self.naturalKey = naturalKey
        self.foldedColumns = foldedColumns
        self.fullTextTable = fullTextTable
        self.fullTextColumns = fullTextColumns
        self.aliases = aliases
        self.substringIndexedColumns = substringIndexedColumns
        self.qualifiedColumns = Dictionary(
            (["id"] + columns + foldedColumns.values).map { ($0, "\(table).\($0)") }, uniquingKeysWith: { first, _ in first })
        self.qualifiedID = "\(table).id"
        self.keyColumnsInOrder = columns.enumerated().compactMap { index, column in
            foldedColumns[column].map { (key: $0, source: index) }
        }
        self.selectColumns = (["id"] + columns).map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// `table.column` for every column a predicate or sort may name: id, the stored columns and
    /// the key columns.
    public let qualifiedColumns: [String: String]

    /// `table.column` for `column` when a predicate or sort may name it (``qualifiedColumns``);
    /// throws ``FetchRequestError/unknownColumn(_:table:known:)`` for any other text, which
    /// therefore never reaches a statement.
    ///
    /// ```swift
    /// try Product.schema.qualifiedColumn("type_key")       // "product.type_key"
    /// try Product.schema.qualifiedColumn("type) FROM …")   // throws unknownColumn
    /// ```
    public func qualifiedColumn(_ column: String) throws -> String {
        guard let qualified = qualifiedColumns[column] else {
            throw FetchRequestError.unknownColumn(column, table: table, known: selection)
        }
        return qualified
    }

    /// `column` and its folded key (the column itself when it has none), qualified as
    /// ``qualifiedColumn(_:)`` checks them: what a section is computed from.
    ///
    /// ```swift
    /// try Country.schema.qualifiedColumnAndKey("capital")  // ("country.capital", "country.capital_key")
    /// ```
    public func qualifiedColumnAndKey(_ column: String) throws -> (column: String, key: String) {
        (try qualifiedColumn(column), try qualifiedColumn(keyColumn(for: column) ?? column))
    }

    /// The key column of `qualifiedKey` (`product.name_key` → `name_key`) when it is one of
    /// ``substringIndexedColumns``: on SQLite it has a trigram and a key range index, on
    /// PostgreSQL an index of its short substrings (``SQLDialect/appendContains(_:_:required:substringIndexed:into:)``).
    package func substringIndexedKey(qualified qualifiedKey: String) -> String? {
        let prefix = table + "."
        guard qualifiedKey.hasPrefix(prefix) else { return nil }
        let key = qualifiedKey.dropFirst(prefix.count)
        return substringIndexedColumns.first { $0 == key }
    }
    /// `table.id`.
    public let qualifiedID: String

    /// The columns a fetch selects, qualified and joined: `table.id, table.column, …`.
    public let selectColumns: String

    /// The columns a fetch selects, in ``Record/init(row:)`` order: `id`, then ``columns``.
    public var selection: [String] {
        ["id"] + columns
    }

    /// The folded key column of `column`, if it has one.
    public func keyColumn(for column: String) -> String? {
        foldedColumns[column]
    }

    /// (key column, index of its source column in ``columns``), in column order.
    public let keyColumnsInOrder: [(key: String, source: Int)]

    /// The columns an engine writes for a record: ``columns``, then their key columns in
    /// column order.
    public var writtenColumns: [String] {
        columns + keyColumnsInOrder.map(\.key)
    }
}

/// A table of extra searchable names for a record (country aliases): one row per name, with its
/// folded key, deleted with the record (`ON DELETE CASCADE`).
public struct AliasTable: Sendable {
    /// The table name (`country_alias`).
    public let table: String
    /// The column referencing the record's id (`country_id`).
    public let recordColumn: String
    /// The name column (`alias`).
    public let nameColumn: String
    /// The folded key column (`alias_key`).
    public let keyColumn: String
    /// The record's column that holds all its aliases joined by ``separator`` (for display,
    /// export and full-text search), or nil.
    public let joinedColumn: String?
    /// The separator in ``joinedColumn``.
    public static let separator = "; "

    /// `alias_table.name`.
    public let qualifiedNameColumn: String
    /// `alias_table.key`.
    public let qualifiedKeyColumn: String
    /// ` IN (SELECT alias_table.record FROM alias_table WHERE `.
    public let subqueryPrefix: String

    /// The alias table `table`, its columns, and the record's column joining all its aliases,
    /// if any.
    public init(table: String, recordColumn: String, nameColumn: String, keyColumn: String, joinedColumn: String?) {
        self.table = table
        self.recordColumn = recordColumn
        self.nameColumn = nameColumn
        self.keyColumn = keyColumn
        self.joinedColumn = joinedColumn
        self.qualifiedNameColumn = "\(table).\(nameColumn)"
        self.qualifiedKeyColumn = "\(table).\(keyColumn)"
        self.subqueryPrefix = " IN (SELECT \(table).\(recordColumn) FROM \(table) WHERE "
    }
}

extension AliasTable {
    /// Aliases as stored: trimmed, empty ones dropped, duplicates dropped (first kept).
    public static func normalized(_ aliases: [String]) -> [String] {
        var seen: Set<String> = []
        return aliases.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Aliases joined for the record's joined column, normalized.
    public static func join(_ aliases: [String]) -> String {
        normalized(aliases).joined(separator: separator)
    }

    /// The aliases of a joined column value.
    public static func split(_ joined: String) -> [String] {
        joined.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
