import CSQLite

/// Watches statement compilation through SQLite's authorizer and notes statements that change
/// the schema, so the connection can empty its statement cache when they run.
final class SchemaChangeObserver {
    private(set) var sawSchemaChange = false

    func reset() {
        sawSchemaChange = false
    }

    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, _, _, _, _ in
            if let context, SchemaChangeObserver.schemaActions.contains(action) {
                Unmanaged<SchemaChangeObserver>.fromOpaque(context).takeUnretainedValue().sawSchemaChange = true
            }
            return SQLITE_OK
        }, context)
    }

    /// CREATE/DROP of indexes, tables, triggers, views and virtual tables, and ALTER TABLE.
    private static let schemaActions: Set<Int32> = [
        SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
        SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
        SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
        SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
        SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE,
    ]
}
