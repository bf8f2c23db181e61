import CatalogueCore
import Foundation
import SQLiteStore

extension Connection {
    /// Inserts `record` and returns it with its new id. Folded keys, aliases and the full-text
    /// index are written with it.
    ///
    /// ```swift
    /// let saved = try db.insert(Product(name: "iPhone 3G", type: "device", year: 2008, price: 199))
    /// saved.id  // the new row id
    /// ```
    @discardableResult
    public func insert<R: Record>(_ record: R) throws -> R {
        try atomically(R.self) {
            let values = record.writtenValues
            try cachedStatement(R.schema.sql.insert).execute(StatementArguments(values))
            var saved = record
            saved.id = lastInsertedRowID
            try writeAliases(of: saved, replacing: false)
            return saved
        }
    }

    /// Inserts `record`, or updates the row with the same natural key (a country's `code`, a
    /// product's name and type). Returns the record with its id and what happened.
    ///
    /// ```swift
    /// let (saved, outcome) = try db.upsert(Country(code: "FR", name: "France", capital: "Paris"))
    /// ```
    @discardableResult
    public func upsert<R: Record>(_ record: R) throws -> (record: R, outcome: UpsertOutcome) {
        try atomically(R.self) {
            let sql: RecordSQL = R.schema.sql
            let values = record.writtenValues
            let keyValues = sql.naturalKeyIndexes.map { values[$0] }
            let existing = try fetchOne(sql.findByNaturalKey, StatementArguments(keyValues)) { try R(row: $0) }
            var saved = record
            guard let existing, let id = existing.id else {
                try cachedStatement(sql.insert).execute(StatementArguments(values))
                saved.id = lastInsertedRowID
                try writeAliases(of: saved, replacing: false)
                return (saved, .inserted)
            }
            saved.id = id
            if existing.databaseValues == record.databaseValues {
                return (saved, .unchanged)
            }
            try cachedStatement(sql.update).execute(StatementArguments(values + [.integer(id)]))
            try writeAliases(of: saved, replacing: true)
            return (saved, .updated)
        }
    }

    /// Updates the row with `record.id`. Throws ``RecordError/notFound(table:id:)`` when there is
    /// none.
    public func update<R: Record>(_ record: R) throws {
        guard let id = record.id else { throw RecordError.missingID(table: R.schema.table) }
        try atomically(R.self) {
            let values = record.writtenValues
            try cachedStatement(R.schema.sql.update).execute(StatementArguments(values + [.integer(id)]))
            guard changedRowCount > 0 else { throw RecordError.notFound(table: R.schema.table, id: id) }
            try writeAliases(of: record, replacing: true)
        }
    }

    /// Deletes the row with `id`; returns whether there was one. Its aliases and full-text
    /// entry go with it.
    @discardableResult
    public func delete<R: Record>(_ type: R.Type, id: Int64) throws -> Bool {
        try cachedStatement(R.schema.sql.deleteByID).execute([id])
        return changedRowCount > 0
    }

    /// Deletes every row of the record's table; returns how many there were. Its key range
    /// indexes (``SQLiteKeyRangeIndex``) start again from one empty range, rather than keep
    /// every deleted key until their ranges are rebuilt.
    @discardableResult
    public func deleteAll<R: Record>(_ type: R.Type) throws -> Int {
        try cachedStatement(R.schema.sql.deleteAll).execute()
        let deleted = changedRowCount
        for index in try keyRangeIndexes() where index.recordTable == R.schema.table {
            try rebuildKeyRanges(index)
        }
        return deleted
    }

    /// The record with `id`, if any.
    public func record<R: Record>(_ type: R.Type, id: Int64) throws -> R? {
        try fetchOne(R.schema.sql.findByID, [id]) { try R(row: $0) }
    }

    /// Inserts or updates many records in one transaction (or savepoint, inside a transaction):
    /// all land, or, when one fails, none. Returns how many were inserted, updated and unchanged.
    /// From ``bulkWriteThreshold`` records on it writes as an import does, with the same index
    /// at the end: the full-text and trigram entries of the new rows are written in one
    /// statement at the end instead of by a trigger per row, the trigger for rows written
    /// without keys is set aside while every record has its keys (CatalogueKit computes them),
    /// and the page cache is at least 64 MiB for the batch. A batch of 100,000 records or more (by its `underestimatedCount`)
    /// whose inserts reach (or, after 10,000 records, are on course to reach) 100,000 or half
    /// the rows the table held has the table's plain indexes built once at the end instead of
    /// row by row.
    ///
    /// ```swift
    /// let counts = try db.upsert(contentsOf: products)
    /// print("\(counts.inserted) added, \(counts.updated) updated")
    /// ```
    @discardableResult
    public func upsert<S: Sequence>(contentsOf records: S) throws -> UpsertCounts where S.Element: Record {
        let expected = records.underestimatedCount
        let bulk = expected >= Self.bulkWriteThreshold
        return try withImportCache(bulk) {
            try transaction(.immediate) {
                // Dropping and restoring triggers changes the schema, which makes every connection
                // prepare its statements again: worth it for many rows, not for a few.
                let deferrals = bulk ? try BulkWriteDeferrals(S.Element.self, on: self) : nil
                // Two prepared statements per record type, no read per row (see RecordUpserter).
                let upserter = try RecordUpserter<S.Element>(self)
                // A batch too small to reach the threshold does not count the table's rows.
                try deferrals?.write(with: upserter, defersIndexes: expected >= IndexDeferral.minimumRows, on: self)
                var counts = UpsertCounts()
                for record in records {
                    // Computed once, for the deferrals and the write (the other path computes its own).
                    let values = upserter.isBatchPath ? record.writtenValues : nil
                    try deferrals?.willWrite(values, on: self)
                    let outcome = try upserter.upsert(record, values: values)
                    counts.record(outcome)
                    if outcome == .inserted, let deferrals {
                        // Records stand for the bytes of an import's file: after 10,000, the
                        // share inserted says whether the batch will reach the threshold.
                        try deferrals.inserted(
                            counts.inserted, rows: counts.total, bytesRead: counts.total, totalBytes: expected, on: self)
                    }
                }
                try deferrals?.finish(on: self)
                try rebuildGrownKeyRanges()
                return counts
            }
        }
    }

    /// How many records ``upsert(contentsOf:)`` takes before it defers full-text indexing to
    /// the end of the batch.
    public static let bulkWriteThreshold = 1_000

    /// Runs a record write so that it lands whole or not at all: in a savepoint when it takes
    /// several statements (a record with aliases); a single statement is atomic by itself.
    private func atomically<R: Record, T>(_ type: R.Type, _ body: () throws -> T) throws -> T {
        R.schema.aliases == nil ? try body() : try savepoint(body)
    }


    func writeAliases<R: Record>(of record: R, replacing: Bool) throws {
        guard let sql = R.schema.sql.insertAlias, let id = record.id else { return }
        if replacing, let delete = R.schema.sql.deleteAliases {
            try cachedStatement(delete).execute([id])
        }
        if let invalid = record.aliases.first(where: { $0.contains(";") }) {
            throw RecordError.invalidAlias(invalid)
        }
        for alias in AliasTable.normalized(record.aliases) {
            try cachedStatement(sql).execute([id, alias, Folding.fold(alias)])
        }
    }
}
