import Foundation

/// What an upsert did.
public enum UpsertOutcome: Sendable, Hashable {
    /// A new row was inserted.
    case inserted
    /// An existing row (same natural key) had different values and was updated.
    case updated
    /// An existing row already had these values; nothing was written.
    case unchanged
}

/// A write of a record was refused.
public enum RecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No row of `table` has this id.
    case notFound(table: String, id: Int64)
    /// The record has no id, and the operation needs one.
    case missingID(table: String)
    /// An alias contains the separator `;`.
    case invalidAlias(String)

    public var description: String {
        switch self {
        case .notFound(let table, let id): "no \(table) with id \(id)"
        case .missingID(let table): "the \(table) record has no id"
        case .invalidAlias(let alias): "invalid alias \(String(reflecting: alias)): aliases must not contain ';'"
        }
    }
}

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
            let values = Self.writtenValues(of: record)
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
            let values = Self.writtenValues(of: record)
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
            let values = Self.writtenValues(of: record)
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

    /// Deletes every row of the record's table; returns how many there were.
    @discardableResult
    public func deleteAll<R: Record>(_ type: R.Type) throws -> Int {
        try cachedStatement(R.schema.sql.deleteAll).execute()
        return changedRowCount
    }

    /// The record with `id`, if any.
    public func record<R: Record>(_ type: R.Type, id: Int64) throws -> R? {
        try fetchOne(R.schema.sql.findByID, [id]) { try R(row: $0) }
    }

    /// Inserts or updates many records in one transaction (or savepoint, inside a transaction):
    /// all land, or, when one fails, none. Returns how many were inserted, updated and unchanged.
    ///
    /// ```swift
    /// let counts = try db.upsert(contentsOf: products)
    /// print("\(counts.inserted) added, \(counts.updated) updated")
    /// ```
    @discardableResult
    public func upsert<S: Sequence>(contentsOf records: S) throws -> UpsertCounts where S.Element: Record {
        try transaction(.immediate) {
            // Two prepared statements per record type, no read per row (see RecordUpserter).
            let upserter = try RecordUpserter<S.Element>(self)
            var counts = UpsertCounts()
            for record in records {
                counts.record(try upserter.upsert(record))
            }
            return counts
        }
    }

    /// Runs a record write so that it lands whole or not at all: in a savepoint when it takes
    /// several statements (a record with aliases); a single statement is atomic by itself.
    private func atomically<R: Record, T>(_ type: R.Type, _ body: () throws -> T) throws -> T {
        R.schema.aliases == nil ? try body() : try savepoint(body)
    }

    static func writtenValues<R: Record>(of record: R) -> [DatabaseValue] {
        let values = record.databaseValues
        precondition(values.count == R.schema.columns.count,
                     "\(R.self).databaseValues has \(values.count) values for \(R.schema.columns.count) columns")
        return values + R.schema.keyColumnsInOrder.map { Folding.key(for: values[$0.source]) }
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

/// How many records a batch upsert inserted, updated and left unchanged.
public struct UpsertCounts: Sendable, Hashable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    /// Counts one outcome.
    public mutating func record(_ outcome: UpsertOutcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .updated: updated += 1
        case .unchanged: unchanged += 1
        }
    }

    /// Every record counted.
    public var total: Int {
        inserted + updated + unchanged
    }
}
