#if PostgreSQL
import CatalogueCore

/// The SQL text of a ``RecordSchema``'s writes on PostgreSQL, built once per schema: the
/// written columns (``RecordSchema/writtenColumns``, then the tsvector columns of the table,
/// each written from its words bound as one text) and `$n` parameters.
struct PostgresRecordSQL: Sendable {
    /// The tsvector columns written, in order.
    let vectorColumns: [String]
    let insert: String
    /// One statement: the upsert, and the id of an unchanged row. Rows: `id, inserted`
    /// (true: inserted, false: updated, NULL: unchanged).
    let upsert: String
    let update: String
    /// The conflict clause of an upsert by natural key: `ON CONFLICT (key) DO UPDATE SET` every
    /// column but the key's `= EXCLUDED.`… `WHERE` the stored columns `IS DISTINCT FROM` the new
    /// ones (so an unchanged row is not written), or `DO NOTHING` when nothing but the key is
    /// stored. Shared by the upserts here and the merge of staged rows (``PostgresStaging``).
    let onConflict: String
    /// The first part of ``batchUpsert(rows:)``: `INSERT INTO table (columns) VALUES `.
    private let batchInsertPrefix: String
    /// The last part of ``batchUpsert(rows:)``: the conflict clause and `RETURNING`.
    private let batchConflictSuffix: String
    /// How many values one record binds (its written columns and tsvector words).
    private let valuesPerRecord: Int
    /// How many written columns come before the tsvector words.
    private let writtenCount: Int
    /// How many records one ``batchUpsert(rows:)`` statement takes at most: 500, fewer when
    /// they would bind more than PostgreSQL's 65,535 parameters (a record of 200 columns: 327).
    let recordsPerBatch: Int
    /// For an import row that lacks some columns: the stored record with the row's natural key,
    /// locked until the transaction ends (`$n`: the natural key's values), and an insert that does
    /// nothing when another transaction stored that key first (`id` of the new row, else no row).
    /// Nil without a natural key.
    let partialUpsert: (findForUpdate: String, insertIfAbsent: String)?
    /// The indexes, in ``RecordSchema/writtenColumns``, of the natural key's columns.
    let naturalKeyIndexes: [Int]
    let deleteByID: String
    let deleteAll: String
    let deleteAliases: String?
    let insertAlias: String?

    init(schema: RecordSchema) {
        let table = schema.table
        let written = schema.writtenColumns
        vectorColumns = PostgresFullText.vectorColumns(of: schema)
        let all = written + vectorColumns
        func parameter(_ index: Int) -> String {
            Self.placeholder(index, number: index + 1, writtenCount: written.count)
        }
        let values = all.indices.map(parameter).joined(separator: ", ")
        let insertInto = "INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES "
        insert = insertInto + "(\(values)) RETURNING id"
        update = "UPDATE \(table) SET " + all.indices.map { "\(all[$0]) = \(parameter($0))" }.joined(separator: ", ")
            + " WHERE id = $\(all.count + 1) RETURNING id"
        let naturalKey = Set(schema.naturalKey)
        let derivedFromKey = Set(schema.keyColumnsInOrder.filter { naturalKey.contains(schema.columns[$0.source]) }.map(\.key))
        let assigned = all.filter { !naturalKey.contains($0) && !derivedFromKey.contains($0) }
        let compared = schema.columns.filter { !naturalKey.contains($0) }
        naturalKeyIndexes = schema.naturalKey.map { written.firstIndex(of: $0)! }
        if schema.naturalKey.isEmpty {
            partialUpsert = nil
        } else {
            let keyParameters = schema.naturalKey.enumerated().map { "\(table).\($0.element) = $\($0.offset + 1)" }
            partialUpsert = (
                "SELECT \(schema.selectColumns) FROM \(table) WHERE \(keyParameters.joined(separator: " AND ")) FOR UPDATE",
                insertInto + "(\(values)) "
                    + "ON CONFLICT (\(schema.naturalKey.joined(separator: ", "))) DO NOTHING RETURNING id")
        }
        let keyCondition = schema.naturalKey.map { column in
            "\(table).\(column) = $\(written.firstIndex(of: column)! + 1)"
        }.joined(separator: " AND ")
        var onConflict = "ON CONFLICT (\(schema.naturalKey.joined(separator: ", "))) "
        if assigned.isEmpty || compared.isEmpty {
            onConflict += "DO NOTHING"
        } else {
            onConflict += "DO UPDATE SET " + assigned.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
                + " WHERE (" + compared.map { "\(table).\($0)" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
                + compared.map { "EXCLUDED.\($0)" }.joined(separator: ", ") + ")"
        }
        self.onConflict = onConflict
        let conflict = insertInto + "(\(values)) " + onConflict
        batchInsertPrefix = insertInto
        batchConflictSuffix = " " + onConflict + " RETURNING id, (xmax = 0) AS inserted"
        valuesPerRecord = all.count
        // PostgreSQL binds at most 65,535 parameters to a statement.
        recordsPerBatch = max(1, min(500, 65_535 / max(1, all.count)))
        writtenCount = written.count
        // xmax = 0: the row version was made by an insert, not an update. The second SELECT
        // sees the table as it was before the statement: it finds the row left unchanged.
        upsert = "WITH upserted AS (\(conflict) RETURNING id, (xmax = 0) AS inserted) "
            + "SELECT id, inserted FROM upserted UNION ALL SELECT id, NULL FROM \(table) WHERE \(keyCondition) "
            + "AND NOT EXISTS (SELECT 1 FROM upserted)"
        deleteByID = "DELETE FROM \(table) WHERE id = $1 RETURNING id"
        deleteAll = "WITH deleted AS (DELETE FROM \(table) RETURNING 1) SELECT count(*) FROM deleted"
        if let aliases = schema.aliases {
            deleteAliases = "DELETE FROM \(aliases.table) WHERE \(aliases.recordColumn) = $1"
            insertAlias = "INSERT INTO \(aliases.table) (\(aliases.recordColumn), \(aliases.nameColumn), \(aliases.keyColumn)) "
                + "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
        } else {
            deleteAliases = nil
            insertAlias = nil
        }
    }

    /// One statement that upserts `rows` records, bound one after the other (``values(of:)``
    /// each), whose natural keys differ: the rows it inserted or changed, `id, inserted` (true:
    /// inserted, false: updated); a record it left unchanged gives no row.
    func batchUpsert(rows: Int) -> String {
        var sql = batchInsertPrefix
        sql.reserveCapacity(batchInsertPrefix.count + rows * valuesPerRecord * 12 + batchConflictSuffix.count)
        for row in 0..<rows {
            if row > 0 { sql += ", " }
            sql += "("
            for column in 0..<valuesPerRecord {
                if column > 0 { sql += ", " }
                sql += Self.placeholder(column, number: row * valuesPerRecord + column + 1, writtenCount: writtenCount)
            }
            sql += ")"
        }
        return sql + batchConflictSuffix
    }

    /// The parameter `$number` for the value of column `column` (of the written columns, then
    /// the tsvector columns): a tsvector column's words are bound as one text.
    private static func placeholder(_ column: Int, number: Int, writtenCount: Int) -> String {
        column < writtenCount ? "$\(number)" : "array_to_tsvector(string_to_array($\(number), ' '))"
    }

    /// The values bound for `record`: its written values, then each tsvector's words joined
    /// by spaces.
    static func values<R: Record>(of record: R) -> [DatabaseValue] {
        let values = record.writtenValues
        return values + PostgresFullText.vectorValues(of: record, values: values).map { .text($0.joined(separator: " ")) }
    }

    /// The SQL of each schema seen.
    static let cache = Locked<[ObjectIdentifier: (schema: RecordSchema, sql: PostgresRecordSQL)]>([:])
}

extension RecordSchema {
    /// The SQL of this table's writes on PostgreSQL.
    var postgres: PostgresRecordSQL {
        PostgresRecordSQL.cache.withLock { cache in
            if let entry = cache[ObjectIdentifier(self)] { return entry.sql }
            let sql = PostgresRecordSQL(schema: self)
            cache[ObjectIdentifier(self)] = (self, sql)
            return sql
        }
    }
}
#endif
