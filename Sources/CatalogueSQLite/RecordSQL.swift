import CatalogueCore

/// The SQL text of a ``RecordSchema``'s reads and writes, built once per schema.
struct RecordSQL: Sendable {
    let selectColumns: String
    let insert: String
    let update: String
    let findByNaturalKey: String
    let findByID: String
    let deleteByID: String
    let deleteAll: String
    let deleteAliases: String?
    let insertAlias: String?
    /// For each natural-key column, the index of its value in the written values.
    let naturalKeyIndexes: [Int]

    /// - Parameter writtenColumns: the stored columns, then their key columns in column order.
    init(table: String, writtenColumns written: [String], selection: [String], naturalKey: [String], aliases: AliasTable?) {
        selectColumns = selection.map { "\(table).\($0)" }.joined(separator: ", ")
        insert = "INSERT INTO \(table) (\(written.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: written.count).joined(separator: ", ")))"
        update = "UPDATE \(table) SET \(written.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
        findByNaturalKey = "SELECT \(selectColumns) FROM \(table) WHERE \(naturalKey.map { "\($0) = ?" }.joined(separator: " AND "))"
        findByID = "SELECT \(selectColumns) FROM \(table) WHERE id = ?"
        deleteByID = "DELETE FROM \(table) WHERE id = ?"
        deleteAll = "DELETE FROM \(table)"
        if let aliases {
            deleteAliases = "DELETE FROM \(aliases.table) WHERE \(aliases.recordColumn) = ?"
            insertAlias = "INSERT OR IGNORE INTO \(aliases.table) (\(aliases.recordColumn), \(aliases.nameColumn), \(aliases.keyColumn)) VALUES (?, ?, ?)"
        } else {
            deleteAliases = nil
            insertAlias = nil
        }
        naturalKeyIndexes = naturalKey.map { column in
            guard let index = written.firstIndex(of: column) else {
                preconditionFailure("natural key column \(column) of \(table) is not a column or a folded key")
            }
            return index
        }
    }
}

extension RecordSchema {
    /// The SQL of this table's reads and writes on SQLite, built once per schema.
    var sql: RecordSQL {
        RecordSQL.cache.withLock { cache in
            if let entry = cache[ObjectIdentifier(self)] { return entry.sql }
            let sql = RecordSQL(
                table: table, writtenColumns: writtenColumns, selection: selection,
                naturalKey: naturalKey, aliases: aliases)
            // The entry keeps the schema alive, so its identifier is never reused.
            cache[ObjectIdentifier(self)] = (self, sql)
            return sql
        }
    }
}

extension RecordSQL {
    /// The SQL of each schema seen (schemas are long-lived: a type's `static let`).
    static let cache = Locked<[ObjectIdentifier: (schema: RecordSchema, sql: RecordSQL)]>([:])
}
