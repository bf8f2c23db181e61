#if PostgreSQL
import CatalogueCore

/// How an import writes records with aliases (countries), or of a type the COPY path does not
/// know, on PostgreSQL: one upsert per row, in a savepoint under `--on-error skip` so a row the
/// database refuses is left out while the transaction goes on. A row that lacks some columns
/// (`assigned`) updates an existing record only in the columns it has, as on SQLite
/// (``PostgresSession/upsert(_:assigning:)``).
struct PostgresRowImportSink<R: ImportableRecord>: ImportSink {
    typealias Record = R
    let session: PostgresSession
    let skipsRefusedRows: Bool

    var wantsWrittenValues: Bool { false }
    var needsIndexing: Bool { false }

    func write(_ record: R, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome {
        for (index, value) in record.databaseValues.enumerated() {
            if case .text(let text) = value, text.utf8.contains(0) {
                throw ImportRowRefused(reason: "\(R.schema.columns[index]): PostgreSQL text cannot hold the NUL character (U+0000)")
            }
        }
        func upsert() throws -> UpsertOutcome {
            if let assigned { return try session.upsert(record, assigning: assigned) }
            return try session.upsert(record).outcome
        }
        guard skipsRefusedRows else { return try upsert() }
        try session.runner.execute("SAVEPOINT catalogue_import_row")
        do {
            let outcome = try upsert()
            try session.runner.execute("RELEASE SAVEPOINT catalogue_import_row")
            return outcome
        } catch {
            guard let state = PostgresEngineError.sqlState(of: error), state.hasPrefix("22") || state.hasPrefix("23") else { throw error }
            try session.runner.execute("ROLLBACK TO SAVEPOINT catalogue_import_row")
            throw ImportRowRefused(reason: "\(error)")
        }
    }

    func finish() throws -> Bool {
        false
    }
}
#endif
