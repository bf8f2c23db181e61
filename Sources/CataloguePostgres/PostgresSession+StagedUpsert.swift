#if PostgreSQL
import CatalogueCore
import PostgresNIO

extension PostgresSession {
    /// How many records (by `underestimatedCount`) make ``upsert(contentsOf:)`` stage them by
    /// COPY (``upsertStaged(_:on:)``) instead of writing them 500 to an `INSERT` statement. The
    /// staging table costs a few statements of its own; from about this many records on, COPY
    /// and one merge are the faster way.
    static var stagedUpsertThreshold: Int { 1_000 }

    /// Upserts `records` (without aliases, with a natural key) as an import writes products: by
    /// COPY into a staging table on `connection`, the write's, then one statement merges them
    /// into the table, the last record of each natural key winning, and counts them as one
    /// upsert a record, in order, would (``PostgresStaging``). Every record the merge wrote is
    /// noted for the change published at commit.
    ///
    /// A record PostgreSQL cannot store (text holding U+0000) fails the COPY with the server's
    /// error, as it fails an `INSERT`; the write's transaction is then rolled back whole.
    func upsertStaged<S: Sequence>(_ records: S, on connection: PostgresConnection) throws -> UpsertCounts
    where S.Element: Record {
        let schema = S.Element.schema
        let staging = try PostgresStaging(schema: schema, runner: runner, connection: connection)
        let copy = staging.startCopy()
        do {
            var line: Int64 = 0
            for record in records {
                let written = record.writtenValues
                line += 1
                try PostgresStaging.appendRow(
                    to: copy, line: line, written: written, vectors: PostgresFullText.vectorValues(of: record, values: written),
                    assigned: nil)
            }
            try copy.finish()
        } catch {
            copy.abort()
            throw error
        }
        let merge = try staging.merge(returningIDs: true)
        try staging.drop()
        for id in merge.changedIDs {
            noteChanged(S.Element.self, id: id)
        }
        if !merge.changedIDs.isEmpty {
            stagedTables.insert(schema.table)
        }
        return merge.counts
    }
}
#endif
