#if PostgreSQL
import CatalogueCore

extension PostgresSession {
    /// Upserts `record` by its natural key, updating an existing record only in the `assigned`
    /// columns (one flag per stored column): the others, and the aliases unless their column is
    /// assigned, keep their stored values, as on SQLite. A new record is inserted whole (no value
    /// where the file had none). Keys and tsvector words are computed from the merged record.
    ///
    /// The stored record is locked (`FOR UPDATE`) from the read to the end of the transaction,
    /// so a concurrent writer's change to a column the file does not have is not lost; a key
    /// another transaction inserts in between is merged with, not overwritten.
    ///
    /// ```swift
    /// // A file with only code and name: the capital stays.
    /// try session.upsert(Country(code: "CO", name: "Kolombia"), assigning: [true, false, false, true, …])
    /// ```
    func upsert<R: Record>(_ record: R, assigning assigned: [Bool]) throws -> UpsertOutcome {
        let schema = R.schema
        precondition(assigned.count == schema.columns.count, "one flag per stored column")
        let sql = schema.postgres
        guard let statements = sql.partialUpsert else { return try upsert(record).outcome }
        let keyValues = sql.naturalKeyIndexes.map { record.writtenValues[$0] }
        let aliasesAssigned = schema.aliases?.joinedColumn
            .flatMap { schema.columns.firstIndex(of: $0) }
            .map { assigned[$0] } ?? true
        while true {
            if let row = try runner.rows(SQLFragment(statements.findForUpdate, keyValues)).first {
                let existing = try R(row: PostgresRecordRow(row, sql: statements.findForUpdate))
                guard let id = existing.id else { throw RecordError.missingID(table: schema.table) }
                let stored = existing.databaseValues
                let merged = MergedValuesRow.merge(record.databaseValues, into: stored, assigned: assigned)
                guard merged != stored else { return .unchanged }
                let saved = try R(row: MergedValuesRow(id: id, values: merged))
                guard !(try runner.rows(SQLFragment(sql.update, PostgresRecordSQL.values(of: saved) + [.integer(id)]))).isEmpty else {
                    throw RecordError.notFound(table: schema.table, id: id)
                }
                if aliasesAssigned {
                    try writeAliases(of: saved, replacing: true)
                }
                noteChanged(R.self, id: id)
                return .updated
            }
            if let row = try runner.rows(SQLFragment(statements.insertIfAbsent, PostgresRecordSQL.values(of: record))).first {
                var saved = record
                saved.id = try PostgresRecordRow(row, sql: statements.insertIfAbsent).decodeInteger(at: 0)
                try writeAliases(of: saved, replacing: false)
                noteChanged(R.self, id: saved.id!)
                return .inserted
            }
            // Another transaction stored this key between the read and the insert (the insert
            // waited for it to commit): read it again, and merge with it.
        }
    }
}
#endif
