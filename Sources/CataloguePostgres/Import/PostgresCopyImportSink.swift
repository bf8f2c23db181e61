#if PostgreSQL
import CatalogueCore
import PostgresNIO

/// How an import writes records without aliases (products) on PostgreSQL: every row goes by
/// COPY into a temporary staging table, in file order; at the end one statement merges the
/// staging table into the record's table (`INSERT … ON CONFLICT (natural key) DO UPDATE … WHERE
/// … IS DISTINCT FROM …`, the last row of each natural key winning, as row-by-row upserts would)
/// and counts what was added, updated and left unchanged, row by row in file order.
///
/// A row that lacks some of the record's columns (a CSV without `year`, a JSON object without
/// the key) is staged with its mask of assigned columns; before the merge its values are
/// resolved against the stored record and the earlier rows of its natural key
/// (``resolvePartialRows()``), so an update changes only the columns the file has, as on
/// SQLite. Files with every column never take that path.
///
/// Rows the database could not store are refused before they are sent (text holding U+0000),
/// so `--on-error skip` leaves out only them.
final class PostgresCopyImportSink<R: ImportableRecord>: ImportSink {
    typealias Record = R
    static var stagingTable: String { "catalogue_import" }

    let runner: PostgresStatementRunner
    let connection: PostgresConnection
    private let copy: CopyStream
    /// The written columns, then the tsvector columns: the record's columns of the staging table.
    let columns: [String]
    private var line: Int64 = 0
    /// How many rows lacked some columns (staged with their mask in `assigned`).
    private var partialRows = 0

    /// Creates the staging table (dropped at commit) and starts the COPY, on the import's
    /// connection, inside its transaction.
    init(runner: PostgresStatementRunner, connection: PostgresConnection) throws {
        self.runner = runner
        self.connection = connection
        let schema = R.schema
        columns = schema.writtenColumns + schema.postgres.vectorColumns
        try runner.execute("""
            CREATE TEMPORARY TABLE \(Self.stagingTable) ON COMMIT DROP AS \
            SELECT \(columns.joined(separator: ", ")) FROM \(schema.table) WITH NO DATA
            """)
        // line: the row's position in the file; assigned: for a row that lacks some columns, one
        // character per stored column, 1 where the file has it (NULL for a whole row).
        try runner.execute("ALTER TABLE \(Self.stagingTable) ADD COLUMN line bigint, ADD COLUMN assigned text")
        copy = Self.startCopy(connection: connection, runner: runner, columns: columns)
    }

    /// Starts a COPY of staged rows (see ``appendRow(to:line:written:vectors:assigned:)``).
    static func startCopy(connection: PostgresConnection, runner: PostgresStatementRunner, columns: [String]) -> CopyStream {
        CopyStream(connection: connection, table: stagingTable, columns: ["line"] + columns + ["assigned"],
            target: runner.context.targetDescription, logger: runner.context.logger)
    }

    /// One staged row in COPY's text format: its line, written values, tsvector words and mask.
    static func appendRow(
        to copy: CopyStream, line: Int64, written: [DatabaseValue], vectors: [(column: String, words: [String])], assigned: [Bool]?
    ) throws {
        try copy.append { buffer in
            buffer.writeString(String(line))
            for value in written {
                buffer.writeInteger(UInt8(ascii: "\t"))
                buffer.writeCopyValue(value)
            }
            for vector in vectors {
                buffer.writeInteger(UInt8(ascii: "\t"))
                buffer.writeCopyText(PostgresFullText.vectorLiteral(vector.words))
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

    var wantsWrittenValues: Bool { true }
    var needsIndexing: Bool { false }

    func write(_ record: R, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome {
        let written = values ?? record.writtenValues
        let vectors = PostgresFullText.vectorValues(of: record, values: written)
        for (index, value) in written.enumerated() {
            if case .text(let text) = value, text.utf8.contains(0) {
                let column = index < R.schema.writtenColumns.count ? R.schema.writtenColumns[index] : "?"
                throw ImportRowRefused(reason: "\(column): PostgreSQL text cannot hold the NUL character (U+0000)")
            }
        }
        line += 1
        if assigned != nil { partialRows += 1 }
        try Self.appendRow(to: copy, line: line, written: written, vectors: vectors, assigned: assigned)
        // Counted at the end (settle): every row is "added" until then.
        return .inserted
    }

    func finish() throws -> Bool {
        false
    }

    /// Abandons the COPY after an error, so the transaction can be rolled back.
    func abort() {
        copy.abort()
    }

    /// Ends the COPY, resolves the rows that lack some columns, merges the staging table and
    /// counts the outcomes.
    func settle(_ counts: ImportCounts) throws -> ImportCounts {
        try copy.finish()
        if partialRows > 0 {
            try resolvePartialRows()
        }
        let sql = Self.mergeSQL(schema: R.schema, columns: columns)
        guard let row = try runner.rows(SQLFragment(sql)).first else { return counts }
        let cells = PostgresRecordRow(row, sql: sql)
        let staged = Int(try cells.decodeInteger(at: 0))
        let inserted = Int(try cells.decodeInteger(at: 1))
        let updated = Int(try cells.decodeInteger(at: 2))
        return ImportCounts(added: inserted, updated: updated, unchanged: staged - inserted - updated, skipped: counts.skipped)
    }

    /// One statement: counts (staged rows; rows that inserted; rows that changed a record: the
    /// stored one for the first row of a natural key, the previous row of the file after that)
    /// and the merge of the last row of each natural key.
    static func mergeSQL(schema: RecordSchema, columns: [String]) -> String {
        let table = schema.table
        let stage = stagingTable
        let key = schema.naturalKey
        let naturalKey = Set(key)
        let derivedFromKey = Set(schema.keyColumnsInOrder.filter { naturalKey.contains(schema.columns[$0.source]) }.map(\.key))
        let compared = schema.columns.filter { !naturalKey.contains($0) }
        let assigned = columns.filter { !naturalKey.contains($0) && !derivedFromKey.contains($0) }
        func row(_ alias: String) -> String { "ROW(" + compared.map { "\(alias).\($0)" }.joined(separator: ", ") + ")" }
        let partition = key.map { "s.\($0)" }.joined(separator: ", ")
        let join = key.map { "t.\($0) = s.\($0)" }.joined(separator: " AND ")
        var conflict = "ON CONFLICT (\(key.joined(separator: ", "))) "
        if assigned.isEmpty || compared.isEmpty {
            conflict += "DO NOTHING"
        } else {
            conflict += "DO UPDATE SET " + assigned.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
                + " WHERE (" + compared.map { "\(table).\($0)" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
                + compared.map { "EXCLUDED.\($0)" }.joined(separator: ", ") + ")"
        }
        return """
            WITH staged AS (
                SELECT s.*, row_number() OVER w AS n, lag(\(row("s"))) OVER w AS previous
                FROM \(stage) s WINDOW w AS (PARTITION BY \(partition) ORDER BY s.line)
            ), counted AS (
                SELECT count(*) AS staged,
                    count(*) FILTER (WHERE s.n = 1 AND t.id IS NULL) AS inserted,
                    count(*) FILTER (WHERE (s.n = 1 AND t.id IS NOT NULL AND \(row("t")) IS DISTINCT FROM \(row("s")))
                        OR (s.n > 1 AND s.previous IS DISTINCT FROM \(row("s")))) AS updated
                FROM staged s LEFT JOIN \(table) t ON \(join)
            ), merged AS (
                INSERT INTO \(table) (\(columns.joined(separator: ", ")))
                SELECT DISTINCT ON (\(key.joined(separator: ", "))) \(columns.joined(separator: ", "))
                FROM \(stage) ORDER BY \(key.joined(separator: ", ")), line DESC
                \(conflict)
                RETURNING 1
            )
            SELECT counted.staged, counted.inserted, counted.updated, (SELECT count(*) FROM merged) FROM counted
            """
    }
}
#endif
