#if PostgreSQL
import CatalogueCore
import PostgresNIO

/// A temporary table of rows on their way into a record's table (a record without aliases,
/// with a natural key: products), filled by COPY in the order the rows come and merged into the
/// table by one statement: the last row of each natural key wins, and the counts of rows added,
/// updated and left unchanged are those one upsert a row, in that order, would give. An import
/// stages a file's rows (``PostgresCopyImportSink``), a bulk upsert its records
/// (``PostgresSession/upsertStaged(_:on:)``).
///
/// Created inside the writing transaction on its connection, dropped at its commit, or sooner
/// by ``drop()`` (so that one transaction can stage again).
///
/// ```swift
/// let staging = try PostgresStaging(schema: Product.schema, runner: runner, connection: connection)
/// let copy = staging.startCopy()
/// try PostgresStaging.appendRow(to: copy, line: 1, written: values, vectors: vectors, assigned: nil)
/// try copy.finish()
/// let merge = try staging.merge(returningIDs: false)   // merge.staged, .inserted, .updated
/// ```
struct PostgresStaging {
    /// The staging table's name (a temporary table: each connection has its own).
    static let table = "catalogue_import"

    let schema: RecordSchema
    let runner: PostgresStatementRunner
    let connection: PostgresConnection
    /// The written columns, then the tsvector columns: the record's columns of the staging table.
    let columns: [String]

    /// What ``merge(returningIDs:)`` did: rows staged, rows that inserted a record, rows that
    /// changed one (the stored record for the first row of a natural key, the previous row of the
    /// key after that), and, when asked, the ids of the records the merge wrote.
    struct Merge {
        let staged: Int
        let inserted: Int
        let updated: Int
        var changedIDs: [Int64] = []

        /// The counts as a bulk upsert reports them.
        var counts: UpsertCounts {
            UpsertCounts(inserted: inserted, updated: updated, unchanged: staged - inserted - updated)
        }
    }

    /// Creates the staging table (dropped at commit) on `connection`, inside its transaction,
    /// which `runner` runs.
    init(schema: RecordSchema, runner: PostgresStatementRunner, connection: PostgresConnection) throws {
        self.schema = schema
        self.runner = runner
        self.connection = connection
        columns = schema.writtenColumns + schema.postgres.vectorColumns
        try runner.execute("""
            CREATE TEMPORARY TABLE \(Self.table) ON COMMIT DROP AS \
            SELECT \(columns.joined(separator: ", ")) FROM \(schema.table) WITH NO DATA
            """)
        // catalogue_line: the row's position in the file; catalogue_assigned: for a row that
        // lacks some columns, one character per stored column, 1 where the file has it (NULL for a
        // whole row). Named so as not to meet a record's own columns, as are the merge's.
        try runner.execute("ALTER TABLE \(Self.table) ADD COLUMN catalogue_line bigint, ADD COLUMN catalogue_assigned text")
    }

    /// Starts a COPY of staged rows (see ``appendRow(to:line:written:vectors:assigned:)``).
    func startCopy() -> CopyStream {
        CopyStream(connection: connection, table: Self.table, columns: ["catalogue_line"] + columns + ["catalogue_assigned"],
            target: runner.context.targetDescription, logger: runner.context.logger)
    }

    /// One staged row in COPY's text format: its line, written values, tsvector words and mask.
    static func appendRow(
        to copy: CopyStream, line: Int64, written: [DatabaseValue], vectors: [[String]], assigned: [Bool]?
    ) throws {
        try copy.append { buffer in
            buffer.writeString(String(line))
            for value in written {
                buffer.writeInteger(UInt8(ascii: "\t"))
                buffer.writeCopyValue(value)
            }
            for words in vectors {
                buffer.writeInteger(UInt8(ascii: "\t"))
                buffer.writeCopyText(PostgresFullText.vectorLiteral(words))
            }
            buffer.writeInteger(UInt8(ascii: "\t"))
            if let assigned {
                for flag in assigned { buffer.writeInteger(flag ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
            } else {
                buffer.writeStaticString("\\N")
            }
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
    }

    /// Why PostgreSQL cannot store `written` (values of ``RecordSchema/writtenColumns``), if it
    /// cannot: text holding the NUL character. Checked before a row is sent, so that COPY does
    /// not fail half-way with the server's "invalid byte sequence".
    static func refusal(of written: [DatabaseValue], in schema: RecordSchema) -> String? {
        for (index, value) in written.enumerated() {
            if case .text(let text) = value, text.utf8.contains(0) {
                let column = index < schema.writtenColumns.count ? schema.writtenColumns[index] : "?"
                return "\(column): PostgreSQL text cannot hold the NUL character (U+0000)"
            }
        }
        return nil
    }

    /// Merges the staged rows into the record's table (``mergeSQL(schema:columns:returningIDs:)``)
    /// and counts the outcomes; with `returningIDs`, also the ids of the records written.
    func merge(returningIDs: Bool) throws -> Merge {
        let sql = Self.mergeSQL(schema: schema, columns: columns, returningIDs: returningIDs)
        // The counts come in one row (an aggregate without GROUP BY always gives one).
        var merge = Merge(staged: 0, inserted: 0, updated: 0)
        for result in try runner.rows(SQLFragment(sql)) {
            let row = PostgresRecordRow(result, sql: sql)
            if let id = try row.decodeOptionalInteger(at: 0) {
                merge.changedIDs.append(id)
            } else {
                merge = Merge(
                    staged: Int(try row.decodeInteger(at: 1)), inserted: Int(try row.decodeInteger(at: 2)),
                    updated: Int(try row.decodeInteger(at: 3)), changedIDs: merge.changedIDs)
            }
        }
        return merge
    }

    /// Drops the staging table before the commit would.
    func drop() throws {
        try runner.execute("DROP TABLE \(Self.table)")
    }

    /// One statement: a row of counts (a NULL id, then the staged rows, the rows that inserted,
    /// the rows that changed a record), the merge of the last row of each natural key (new
    /// records numbered in the order their keys first appear) and, with `returningIDs`, a row
    /// for each record it wrote (its id, then NULLs).
    ///
    /// A natural key with a NULL column equals no other key, as in a unique index and in one
    /// upsert a row: such a row is a key of its own (its line is added to the grouping; NULL
    /// for every other row), where grouping, partitioning and `DISTINCT ON` would take NULLs as
    /// equal. A key's rows find their number by the key's first line, which every key has.
    static func mergeSQL(schema: RecordSchema, columns: [String], returningIDs: Bool) -> String {
        let table = schema.table
        let stage = Self.table
        let key = schema.naturalKey
        let compared = schema.columns.filter { !key.contains($0) }
        func row(_ alias: String) -> String { "ROW(" + compared.map { "\(alias).\($0)" }.joined(separator: ", ") + ")" }
        func sameKey(_ left: String, _ right: String) -> String {
            key.map { "\(left).\($0) = \(right).\($0)" }.joined(separator: " AND ")
        }
        // The natural key's columns, then the row's line when one of them is NULL.
        let keys = key.map { "s.\($0)" }.joined(separator: ", ")
            + ", CASE WHEN " + key.map { "s.\($0) IS NULL" }.joined(separator: " OR ") + " THEN s.catalogue_line END"
        let sequence = "nextval(pg_get_serial_sequence('\(table)', 'id'))"
        let countsRow = "SELECT NULL::bigint, counted.staged, counted.inserted, counted.updated FROM counted"
        // w: a natural key's rows in file order, for the counts. New keys are numbered in the
        // order they first appear in the file (numbered), as one upsert a row numbers them, and
        // the rows are written in key order, which keeps the name indexes' pages in cache: the
        // merge of 618,023 new rows took 29.5–30.6 s inserted in key order (ids in name order),
        // 36.8–38.6 s inserted in file order, 33.3–34.2 s so.
        return """
            WITH staged AS (
                SELECT s.*, row_number() OVER w AS catalogue_n, lag(\(row("s"))) OVER w AS catalogue_previous
                FROM \(stage) s WINDOW w AS (PARTITION BY \(keys) ORDER BY s.catalogue_line)
            ), counted AS (
                SELECT count(*) AS staged,
                    count(*) FILTER (WHERE s.catalogue_n = 1 AND t.id IS NULL) AS inserted,
                    count(*) FILTER (WHERE (s.catalogue_n = 1 AND t.id IS NOT NULL AND \(row("t")) IS DISTINCT FROM \(row("s")))
                        OR (s.catalogue_n > 1 AND s.catalogue_previous IS DISTINCT FROM \(row("s")))) AS updated
                FROM staged s LEFT JOIN \(table) t ON \(sameKey("t", "s"))
            ), numbered AS (
                SELECT catalogue_first, \(sequence) AS catalogue_id FROM (
                    SELECT min(s.catalogue_line) AS catalogue_first FROM \(stage) s
                    WHERE NOT EXISTS (SELECT 1 FROM \(table) t WHERE \(sameKey("t", "s")))
                    GROUP BY \(keys) ORDER BY catalogue_first
                ) new_keys
            ), merged AS (
                INSERT INTO \(table) (id, \(columns.joined(separator: ", ")))
                SELECT coalesce(n.catalogue_id, t.id, \(sequence)), \(columns.map { "last.\($0)" }.joined(separator: ", "))
                FROM (
                    SELECT DISTINCT ON (\(keys)) s.*, min(s.catalogue_line) OVER (PARTITION BY \(keys)) AS catalogue_first
                    FROM \(stage) s ORDER BY \(keys), s.catalogue_line DESC
                ) last
                LEFT JOIN numbered n ON n.catalogue_first = last.catalogue_first
                LEFT JOIN \(table) t ON \(sameKey("t", "last"))
                ORDER BY \(key.map { "last.\($0)" }.joined(separator: ", "))
                \(schema.postgres.onConflict)
                RETURNING id
            )
            \(returningIDs ? countsRow + " UNION ALL SELECT id, NULL, NULL, NULL FROM merged" : countsRow)
            """
    }
}
#endif
