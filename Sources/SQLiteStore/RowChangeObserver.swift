import CSQLite

/// The rows a connection's statements inserted, updated or deleted, per table, as SQLite's
/// update hook reports them: what a write changed, known the moment it commits.
///
/// ```swift
/// db.startObservingRowChanges()
/// try db.execute("INSERT INTO note (text) VALUES ('a')")
/// let changed = db.takeObservedRowChanges()   // ["note": RowChanges(ids: [1])]
/// ```
///
/// Not reported by SQLite: changes to `WITHOUT ROWID` tables, and rows replaced by
/// `ON CONFLICT REPLACE`. A table with more than ``RowChanges/idLimit`` changed rows keeps only
/// the fact that it changed.
public struct RowChanges: Sendable, Hashable {
    /// The most row ids kept per table.
    public static let idLimit = 10_000
    /// The ids of the changed rows; nil when there were more than ``idLimit``.
    public internal(set) var ids: Set<Int64>? = []
}

/// Collects update-hook reports for a connection.
final class RowChangeObserver {
    private(set) var changes: [String: RowChanges] = [:]

    func record(table: String, rowID: Int64) {
        var entry = changes[table] ?? RowChanges()
        if entry.ids != nil {
            entry.ids!.insert(rowID)
            if entry.ids!.count > RowChanges.idLimit { entry.ids = nil }
        }
        changes[table] = entry
    }

    func take() -> [String: RowChanges] {
        defer { changes.removeAll() }
        return changes
    }

    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(handle, { context, _, _, table, rowID in
            guard let context, let table else { return }
            Unmanaged<RowChangeObserver>.fromOpaque(context).takeUnretainedValue()
                .record(table: String(cString: table), rowID: rowID)
        }, context)
    }

    static func uninstall(from handle: OpaquePointer) {
        sqlite3_update_hook(handle, nil, nil)
    }
}

extension Connection {
    /// Starts collecting the rows this connection's statements change (see ``RowChanges``).
    public func startObservingRowChanges() {
        guard rowChangeObserver == nil else { return }
        let observer = RowChangeObserver()
        observer.install(on: handle)
        rowChangeObserver = observer
    }

    /// Stops collecting row changes and forgets those collected.
    public func stopObservingRowChanges() {
        guard rowChangeObserver != nil else { return }
        RowChangeObserver.uninstall(from: handle)
        rowChangeObserver = nil
    }

    /// The row changes collected since the last call (or since observing started), per table;
    /// empty when not observing.
    public func takeObservedRowChanges() -> [String: RowChanges] {
        rowChangeObserver?.take() ?? [:]
    }
}
