import CatalogueCore
import SQLiteStore

extension Connection {
    /// Upserts `record` by its natural key, updating an existing row only in the `assigned`
    /// columns (one flag per stored column): the others, and the aliases unless their column is
    /// assigned, keep their stored values. A new record is inserted whole (no value where the
    /// file had none). For records with aliases, whose upsert takes the general path.
    ///
    /// ```swift
    /// // A file with only code and name: the capital stays.
    /// try db.upsert(Country(code: "CO", name: "Kolombia"), assigning: [true, false, false, true, …])
    /// ```
    func upsert<R: Record>(_ record: R, assigning assigned: [Bool]) throws -> UpsertOutcome {
        let schema = R.schema
        precondition(assigned.count == schema.columns.count, "one flag per stored column")
        let values = record.writtenValues
        let keyValues = schema.sql.naturalKeyIndexes.map { values[$0] }
        guard let existing = try fetchOne(schema.sql.findByNaturalKey, StatementArguments(keyValues), { try R(row: $0) }),
              let id = existing.id
        else {
            return try upsert(record).outcome
        }
        let stored = existing.databaseValues
        let merged = zip(stored, record.databaseValues).enumerated().map { index, pair in
            assigned[index] ? pair.1 : pair.0
        }
        guard merged != stored else { return .unchanged }
        let aliasesAssigned = schema.aliases?.joinedColumn
            .flatMap { schema.columns.firstIndex(of: $0) }
            .map { assigned[$0] } ?? true
        try savepoint {
            let written = merged + schema.keyColumnsInOrder.map { Folding.key(for: merged[$0.source]) }
            try cachedStatement(schema.sql.update).execute(StatementArguments(written + [.integer(id)]))
            if aliasesAssigned {
                var saved = record
                saved.id = id
                try writeAliases(of: saved, replacing: true)
            }
        }
        return .updated
    }
}
