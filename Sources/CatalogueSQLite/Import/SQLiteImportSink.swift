import CatalogueCore
import SQLiteStore

/// How an import writes on SQLite: two prepared statements per row (``RecordUpserter``), with
/// the triggers set aside and, for big imports, the plain indexes built once at the end
/// (``BulkWriteDeferrals``).
struct SQLiteImportSink<R: ImportableRecord>: ImportSink {
    let db: Connection
    let upserter: RecordUpserter<R>
    let deferrals: BulkWriteDeferrals

    init(db: Connection) throws {
        self.db = db
        deferrals = try BulkWriteDeferrals(R.self, on: db)
        upserter = try RecordUpserter<R>(db)
        try deferrals.write(with: upserter, defersIndexes: true, on: db)
    }

    var wantsWrittenValues: Bool {
        upserter.isBatchPath
    }

    var needsIndexing: Bool {
        deferrals.needsIndexing
    }

    func write(_ record: R, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome {
        let outcome: UpsertOutcome
        // On the two-statement path the reading thread computed `values`.
        try deferrals.willWrite(values, on: db)
        do {
            outcome = try upserter.upsert(record, values: values, assigned: assigned)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint the checks do not cover: the statement was rolled back, the
            // transaction goes on.
            throw ImportRowRefused(reason: error.message)
        }
        if outcome == .inserted {
            try deferrals.inserted(
                position.counts.added + 1, rows: position.counts.rows + 1, bytesRead: position.bytesRead,
                totalBytes: position.totalBytes, on: db)
        }
        return outcome
    }

    func finish() throws -> Bool {
        let indexing = needsIndexing
        try deferrals.finish(on: db)
        try db.rebuildGrownKeyRanges()
        return indexing
    }
}
