#if PostgreSQL
import CatalogueCore
import PostgresNIO

/// How an import writes records without aliases (products) on PostgreSQL: every row goes by
/// COPY into a temporary staging table (``PostgresStaging``), in file order; at the end one
/// statement merges the staging table into the record's table (`INSERT … ON CONFLICT (natural
/// key) DO UPDATE … WHERE … IS DISTINCT FROM …`, the last row of each natural key winning, as
/// row-by-row upserts would) and counts what was added, updated and left unchanged, row by row
/// in file order.
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

    let staging: PostgresStaging
    private let copy: CopyStream
    private var line: Int64 = 0
    /// How many rows lacked some columns (staged with their mask in `assigned`).
    private var partialRows = 0

    /// Runs the import's statements, in its transaction.
    var runner: PostgresStatementRunner { staging.runner }

    /// Creates the staging table (dropped at commit) and starts the COPY, on the import's
    /// connection, inside its transaction.
    init(runner: PostgresStatementRunner, connection: PostgresConnection) throws {
        staging = try PostgresStaging(schema: R.schema, runner: runner, connection: connection)
        copy = staging.startCopy()
    }

    var wantsWrittenValues: Bool { true }
    var needsIndexing: Bool { false }

    func write(_ record: R, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome {
        let written = values ?? record.writtenValues
        if let reason = PostgresStaging.refusal(of: written, in: R.schema) {
            throw ImportRowRefused(reason: reason)
        }
        line += 1
        if assigned != nil { partialRows += 1 }
        try PostgresStaging.appendRow(
            to: copy, line: line, written: written, vectors: PostgresFullText.vectorValues(of: record, values: written),
            assigned: assigned)
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
        let merge = try staging.merge(returningIDs: false)
        return ImportCounts(
            added: merge.inserted, updated: merge.updated, unchanged: merge.staged - merge.inserted - merge.updated,
            skipped: counts.skipped)
    }
}
#endif
