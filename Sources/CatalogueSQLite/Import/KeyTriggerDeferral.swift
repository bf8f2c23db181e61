import CatalogueCore
import SQLiteStore

/// Suspends a table's trigger for rows written without their folded keys (migration 0003's
/// `product_keys_after_insert`) while a bulk write inserts rows that all have their keys.
///
/// Why: that trigger never fires for CatalogueKit's own rows (its `WHEN` asks for an empty key,
/// and CatalogueKit computes every key), but its presence alone makes each INSERT a statement
/// that may write more than one row and may abort. SQLite then keeps a statement journal: before
/// an INSERT changes a page, it copies the page's old content there, to undo that statement
/// alone. Inside an import's transaction that journal soon outgrows its 64 KiB in memory and
/// becomes a temporary file, and every row then costs about three 4 KiB writes to it: at
/// 1,000,000 products, 5.3 million `pwrite` calls and 10 GiB copied, a quarter of the import's time.
/// Without an insert trigger, SQLite keeps no statement journal for a one-row INSERT.
///
/// The trigger is suspended only when its `WHEN` clause is exactly "a key column is empty", over
/// the record's key columns (`new.name_key = '' OR new.type_key = ''`), so that it is known not
/// to fire for a row whose keys are all non-empty. Before writing a row with an empty key (a
/// value that folds to nothing), ``willWrite(_:on:)`` restores the trigger from its stored SQL,
/// and the rest of the write keeps it: every row the trigger would have fired for is written
/// with it in place. A rolled-back write leaves the trigger as it was; a committed one ends with
/// the same schema.
///
/// ``BulkWriteDeferrals`` uses it so:
///
/// ```swift
/// let keys = try KeyTriggerDeferral.suspend(Product.self, on: db)
/// for product in products {
///     let values = product.writtenValues
///     try keys?.willWrite(values, on: db)
///     // … insert with `values` …
/// }
/// try keys?.resume(on: db)
/// ```
final class KeyTriggerDeferral {
    /// The trigger's name.
    let triggerName: String
    /// The trigger's SQL, as `sqlite_master` stored it.
    let triggerSQL: String
    /// The positions of the key columns among a record's ``Record/writtenValues``.
    let keyPositions: [Int]
    /// Whether the trigger is dropped, waiting for ``resume(on:)``.
    private(set) var isSuspended = true

    private init(triggerName: String, triggerSQL: String, keyPositions: [Int]) {
        self.triggerName = triggerName
        self.triggerSQL = triggerSQL
        self.keyPositions = keyPositions
    }

    /// Drops `R`'s trigger for rows without keys when it is the one described above; nil when
    /// the table has no such trigger (nothing is done then).
    static func suspend<R: Record>(_ type: R.Type, on db: Connection) throws -> KeyTriggerDeferral? {
        let schema = R.schema
        let keys = schema.keyColumnsInOrder.map(\.key)
        guard !keys.isEmpty else { return nil }
        let header = "after insert on \(schema.table.lowercased()) when "
            + keys.map { "new.\($0.lowercased()) = ''" }.joined(separator: " or ") + " begin "
        let matching = try SQLiteSchemaText.triggers(on: schema.table, in: db).filter {
            (SQLiteSchemaText.words(of: $0.sql) + " ").contains(header)
        }
        guard matching.count == 1, let trigger = matching.first else { return nil }
        let written = schema.columns + keys
        let positions = keys.compactMap { written.firstIndex(of: $0) }
        guard positions.count == keys.count else { return nil }
        try db.execute("DROP TRIGGER \(SQLiteSchemaText.quoted(trigger.name))")
        _ = try db.storedDefinition(trigger.sql, of: trigger.name)
        return KeyTriggerDeferral(triggerName: trigger.name, triggerSQL: trigger.sql, keyPositions: positions)
    }

    /// Restores the trigger before a row whose `values` (its ``Record/writtenValues``) have an
    /// empty key, which the trigger fires for; it then stays for the rest of the write.
    @inline(__always)
    func willWrite(_ values: [DatabaseValue], on db: Connection) throws {
        guard isSuspended else { return }
        for position in keyPositions {
            if case .text(let key) = values[position], key.isEmpty {
                try resume(on: db)
                return
            }
        }
    }

    /// Creates the trigger again (once).
    func resume(on db: Connection) throws {
        guard isSuspended else { return }
        try db.storedDefinition(triggerSQL, of: triggerName).execute()
        isSuspended = false
    }
}
