import CatalogueCore
import SQLiteStore

/// What a bulk write (an import, or `upsert(contentsOf:)` of many records) sets aside while it
/// writes its rows, and does once at the end: the full-text, trigram and key range triggers
/// (``FullTextDeferral``), the trigger for rows without keys (``KeyTriggerDeferral``) and, for
/// big writes, the plain indexes (``IndexDeferral``).
///
/// The triggers are set aside before the write prepares its statements (``init(_:on:)``), so
/// that those are compiled once, against the schema they run on. Both kinds of bulk write use
/// it the same way:
///
/// ```swift
/// let deferrals = try BulkWriteDeferrals(Product.self, on: db)
/// let upserter = try RecordUpserter<Product>(db)
/// try deferrals.write(with: upserter, defersIndexes: true, on: db)
/// for product in products {
///     let values = product.writtenValues
///     try deferrals.willWrite(values, on: db)
///     if try upserter.upsert(product, values: values) == .inserted {
///         try deferrals.inserted(added, rows: rows, bytesRead: read, totalBytes: size, on: db)
///     }
/// }
/// try deferrals.finish(on: db)
/// ```
final class BulkWriteDeferrals {
    private let fullText: [FullTextDeferral]
    private var keys: KeyTriggerDeferral?
    private var indexes: IndexDeferral?

    /// Sets aside `R`'s triggers, where its upserts can take the two-statement path
    /// (``RecordUpserter``); nothing otherwise.
    init<R: Record>(_ type: R.Type, on db: Connection) throws {
        guard let assigned = RecordUpserter<R>.assignedColumns else {
            fullText = []
            return
        }
        fullText = try FullTextDeferral.suspend(R.self, on: db, updatedColumns: assigned)
        keys = try KeyTriggerDeferral.suspend(R.self, on: db)
    }

    /// Adapts to the statements `upserter` prepared: the trigger for rows without keys comes
    /// back at once unless they are the two-statement path's (only it is given each row's
    /// values, which say whether the trigger would fire); with `defersIndexes`, that path has
    /// the table's plain indexes built at the end when the write turns out big.
    func write<R: Record>(with upserter: RecordUpserter<R>, defersIndexes: Bool, on db: Connection) throws {
        guard upserter.isBatchPath else {
            try keys?.resume(on: db)
            keys = nil
            return
        }
        // Only that path never reads the plain indexes, so only it can build them last.
        if defersIndexes { indexes = try IndexDeferral(table: R.schema.table, on: db) }
    }

    /// Whether ``finish(on:)`` has indexing to do.
    var needsIndexing: Bool {
        !fullText.isEmpty || indexes?.hasDroppedIndexes == true
    }

    /// Before writing a row with `values` (its ``Record/writtenValues``; nil off the
    /// two-statement path): brings back the trigger for rows without keys when it would fire.
    @inline(__always)
    func willWrite(_ values: [DatabaseValue]?, on db: Connection) throws {
        if let keys, let values { try keys.willWrite(values, on: db) }
    }

    /// After a row was inserted: `insertedRows` so far, of `rows`, with `bytesRead` of
    /// `totalBytes` (see ``IndexDeferral/inserted(_:rows:bytesRead:totalBytes:on:)``).
    @inline(__always)
    func inserted(_ insertedRows: Int, rows: Int, bytesRead: Int, totalBytes: Int?, on db: Connection) throws {
        try indexes?.inserted(insertedRows, rows: rows, bytesRead: bytesRead, totalBytes: totalBytes, on: db)
    }

    /// Builds the dropped indexes, indexes the new rows for full-text search and restores every
    /// trigger; the schema ends as it began.
    func finish(on db: Connection) throws {
        // The key ranges are rebuilt by reading the key index, so the indexes come first.
        try indexes?.rebuild(on: db)
        for deferral in fullText { try deferral.resume(on: db) }
        try keys?.resume(on: db)
    }
}
