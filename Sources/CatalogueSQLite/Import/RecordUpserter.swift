import CatalogueCore
import Foundation
import SQLiteStore

/// Upserts many records of one type by natural key, with two prepared statements and no read:
///
/// 1. `INSERT … ON CONFLICT (natural key) DO NOTHING`: one changed row means a new record;
/// 2. otherwise `UPDATE … WHERE natural key AND (column IS NOT value OR …)`: one changed row
///    means an update, none means the stored record already had these values.
///
/// A new record costs one statement (the unique index on the natural key finds the conflict,
/// which the old read-then-write path looked up a second time), and an existing one is never
/// decoded. Natural-key columns are not in the `SET` list, so an update leaves the name and its
/// full-text entry alone. Both statements take the same values, ``Record/writtenValues``,
/// as numbered parameters.
///
/// Records with aliases (countries), and record types whose natural key has no unique index
/// (`ON CONFLICT` needs one), go through ``Connection/upsert(_:)`` instead.
///
/// ```swift
/// let upserter = try RecordUpserter<Product>(db)
/// let outcome = try upserter.upsert(Product(name: "Brio", type: "device", year: 2020))  // .inserted
/// ```
final class RecordUpserter<R: Record> {
    private let db: Connection
    private let statements: (insert: Statement, update: Statement?)?
    /// UPDATE statements for rows that assign only some columns, by which columns.
    private var partialUpdates: [[Bool]: Statement?] = [:]

    init(_ db: Connection) throws {
        self.db = db
        guard let sql = Self.sql() else {
            statements = nil
            return
        }
        do {
            statements = (try db.makeStatement(sql.insert), try sql.update.map(db.makeStatement))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint": a host
            // type without a unique index on its natural key.
            statements = nil
        }
    }

    /// Whether upserts take the two-statement path (not ``Connection/upsert(_:)``).
    var isBatchPath: Bool {
        statements != nil
    }

    /// Inserts `record`, or updates the record with its natural key; says which happened.
    /// `values`, when given, are its ``Record/writtenValues``, computed beforehand.
    /// `assigned` (one flag per stored column, nil for all) limits an update to the columns the
    /// import file has; a new record gets no value in the others.
    func upsert(_ record: R, values: [DatabaseValue]? = nil, assigned: [Bool]? = nil) throws -> UpsertOutcome {
        guard let (insert, update) = statements else {
            if let assigned { return try db.upsert(record, assigning: assigned) }
            return try db.upsert(record).outcome
        }
        let values = values ?? record.writtenValues
        try run(insert, values)
        if db.changedRowCount > 0 { return .inserted }
        let statement = try assigned.map(partialUpdate) ?? update
        guard let statement else { return .unchanged }
        try run(statement, values)
        return db.changedRowCount > 0 ? .updated : .unchanged
    }

    /// The UPDATE that assigns only the `assigned` columns (nil when it would assign none).
    private func partialUpdate(_ assigned: [Bool]) throws -> Statement? {
        if let statement = partialUpdates[assigned] { return statement }
        let statement = try Self.plan(assigned: assigned)?.update.map(db.makeStatement)
        partialUpdates[assigned] = statement
        return statement
    }

    /// Runs `statement` with `values` as its numbered parameters. An UPDATE may use fewer than
    /// the written values: not the key columns derived from the natural key (a city's
    /// `name_key`), which it does not assign, so the values after its last parameter are not bound.
    private func run(_ statement: Statement, _ values: [DatabaseValue]) throws {
        statement.reset()
        for offset in 0..<min(values.count, statement.parameterCount) {
            try statement.bind(values[offset], at: offset + 1)
        }
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// The columns the UPDATE assigns, or nil when `R` takes the general path (which may
    /// assign any column).
    static var assignedColumns: [String]? {
        plan()?.assigned
    }

    /// The two statements' SQL, or nil when `R` takes the general path.
    static func sql() -> (insert: String, update: String?)? {
        plan().map { ($0.insert, $0.update) }
    }

    /// The statements' SQL; with `assigned` (one flag per stored column), an UPDATE of only
    /// those columns and their keys.
    private static func plan(assigned mask: [Bool]? = nil) -> (insert: String, update: String?, assigned: [String])? {
        let schema = R.schema
        guard schema.aliases == nil, !schema.naturalKey.isEmpty else { return nil }
        let written = schema.columns + schema.keyColumnsInOrder.map(\.key)
        func parameter(_ column: String) -> String { "?\(written.firstIndex(of: column)! + 1)" }
        let naturalKey = Set(schema.naturalKey)
        // Key columns derived from a natural-key column cannot change either.
        let derivedFromKey = Set(schema.keyColumnsInOrder.filter { naturalKey.contains(schema.columns[$0.source]) }.map(\.key))
        // The stored columns the row has, and the keys derived from them.
        var included = Set(schema.columns.indices.filter { mask?[$0] ?? true }.map { schema.columns[$0] })
        included.formUnion(schema.keyColumnsInOrder.filter { included.contains(schema.columns[$0.source]) }.map(\.key))
        let assigned = written.filter { !naturalKey.contains($0) && !derivedFromKey.contains($0) && included.contains($0) }
        let compared = schema.columns.filter { !naturalKey.contains($0) && included.contains($0) }
        let insert = "INSERT INTO \(schema.table) (\(written.joined(separator: ", "))) VALUES ("
            + written.map(parameter).joined(separator: ", ")
            + ") ON CONFLICT (\(schema.naturalKey.joined(separator: ", "))) DO NOTHING"
        let keyCondition = schema.naturalKey.map { "\($0) = \(parameter($0))" }.joined(separator: " AND ")
        guard !assigned.isEmpty, !compared.isEmpty else {
            // Nothing but the key: an existing row is always unchanged.
            return (insert, nil, [])
        }
        let update = "UPDATE \(schema.table) SET " + assigned.map { "\($0) = \(parameter($0))" }.joined(separator: ", ")
            + " WHERE \(keyCondition) AND ("
            + compared.map { "\($0) IS NOT \(parameter($0))" }.joined(separator: " OR ") + ")"
        return (insert, update, assigned)
    }
}
