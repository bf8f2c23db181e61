import CatalogueCore
import SQLiteStore

/// How an import writes on SQLite: two prepared statements per row (``RecordUpserter``), the
/// full-text and trigram triggers suspended (``FullTextDeferral``), the trigger for rows without
/// keys too while every row has its keys (``KeyTriggerDeferral``) and, for big imports, the plain
/// indexes built once at the end (``IndexDeferral``).
struct SQLiteImportSink<R: ImportableRecord>: ImportSink {
    let db: Connection
    let upserter: RecordUpserter<R>
    let fullText: [FullTextDeferral]
    let keys: KeyTriggerDeferral?
    let indexes: IndexDeferral?

    init(db: Connection) throws {
        self.db = db
        fullText = try RecordUpserter<R>.assignedColumns.map {
            try FullTextDeferral.suspend(R.self, on: db, updatedColumns: $0)
        } ?? []
        upserter = try RecordUpserter<R>(db)
        // Only the two-statement path never reads the plain indexes, and writes the values it
        // is given (which say whether the keys trigger would fire).
        indexes = upserter.isBatchPath ? try IndexDeferral(table: R.schema.table, on: db) : nil
        keys = upserter.isBatchPath ? try KeyTriggerDeferral.suspend(R.self, on: db) : nil
    }

    var wantsWrittenValues: Bool {
        upserter.isBatchPath
    }

    var needsIndexing: Bool {
        !fullText.isEmpty || indexes?.hasDroppedIndexes == true
    }

    func write(_ record: R, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome {
        let outcome: UpsertOutcome
        let values = keys == nil ? values : values ?? record.writtenValues
        if let keys, let values { try keys.willWrite(values, on: db) }
        do {
            outcome = try upserter.upsert(record, values: values, assigned: assigned)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint the checks do not cover: the statement was rolled back, the
            // transaction goes on.
            throw ImportRowRefused(reason: error.message)
        }
        if outcome == .inserted {
            try indexes?.inserted(
                position.counts.added + 1, rows: position.counts.rows + 1, bytesRead: position.bytesRead,
                totalBytes: position.totalBytes, on: db)
        }
        return outcome
    }

    func finish() throws -> Bool {
        let indexing = needsIndexing
        // The key ranges are rebuilt by reading the key index, so the indexes come first.
        try indexes?.rebuild(on: db)
        for deferral in fullText { try deferral.resume(on: db) }
        try keys?.resume(on: db)
        try db.rebuildGrownKeyRanges()
        return indexing
    }
}
