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
            if let context, SchemaChangeObserver.changesSchema(action) {
                Unmanaged<SchemaChangeObserver>.fromOpaque(context).takeUnretainedValue().sawSchemaChange = true
            }
            return SQLITE_OK
        }, context)
    }

    /// Whether `action` is a CREATE/DROP of an index, table, trigger, view or virtual table, or
    /// ALTER TABLE. (A `switch`, not a `Set<Int32>`: a set's first use has the Swift runtime scan
    /// every protocol conformance record of the binary to check `Int32: Hashable`, about 1 % of a
    /// cold `catalogue search`.)
    private static func changesSchema(_ action: Int32) -> Bool {
        switch action {
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
             SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
             SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
             SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
             SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            true
        default:
            false
        }
    }
}
