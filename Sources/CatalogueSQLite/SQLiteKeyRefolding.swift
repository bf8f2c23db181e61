import CatalogueCore
import SQLiteStore

/// Folds the keys of rows that another tool wrote (the queue `catalogue_refold`, filled by the
/// triggers of migration 0003), exactly as CatalogueKit folds its own writes, so those rows are
/// found by `BEGINSWITH[cd]` like the rest.
///
/// ```swift
/// try db.transaction(.immediate) { _ = try SQLiteKeyRefolding.refoldQueued(on: db) }
/// ```
enum SQLiteKeyRefolding {
    /// Whether the database has the queue (a catalogue migrated to version 3).
    static func hasQueue(_ db: Connection) throws -> Bool {
        try db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'catalogue_refold'") == 1
    }

    /// Whether rows wait to be folded.
    static func hasQueuedRows(_ db: Connection) throws -> Bool {
        try hasQueue(db) && db.scalar("SELECT EXISTS (SELECT 1 FROM catalogue_refold)") == 1
    }

    /// Folds the queued keys of the catalogue at `path` through a connection of its own, opened
    /// for writing and closed again, after the integrity check; returns how many keys changed.
    static func refoldQueued(atPath path: String, configuration: Configuration) throws -> Int {
        let db = try Connection(path: path, configuration: configuration)
        try SQLiteEngine.registerFunctions(on: db)
        return try db.transaction(.immediate) {
            guard try hasQueuedRows(db) else { return 0 }
            try IntegrityGate.check(db, path: path)
            return try refoldQueuedAndRebuildRanges(on: db)
        }
    }

    /// ``refoldQueued(on:)``, then the key ranges the folded keys made grow rebuilt
    /// (``Connection/rebuildGrownKeyRanges()``): for a transaction that writes nothing else.
    /// A catalogue's own writes rebuild them once, after their own rows.
    static func refoldQueuedAndRebuildRanges(on db: Connection) throws -> Int {
        let changed = try refoldQueued(on: db)
        try db.rebuildGrownKeyRanges()
        return changed
    }

    /// Folds every queued row's keys and empties the queue, in the caller's transaction;
    /// returns how many keys changed. Entries that do not name a value column and its `_key`
    /// column are dropped without effect.
    @discardableResult
    static func refoldQueued(on db: Connection) throws -> Int {
        guard try hasQueuedRows(db) else { return 0 }
        let entries = try db.fetchAll(
            "SELECT table_name, id_column, row_id, value_column, key_column FROM catalogue_refold"
        ) { row in
            (table: try row.decode(String.self, at: 0), idColumn: try row.decode(String.self, at: 1),
             id: try row.decode(Int64.self, at: 2), value: try row.decode(String.self, at: 3),
             key: try row.decode(String.self, at: 4))
        }
        var changed = 0
        for entry in entries where entry.key == entry.value + "_key" {
            let (table, idColumn, value, key) = (quoted(entry.table), quoted(entry.idColumn), quoted(entry.value), quoted(entry.key))
            let rows = try db.fetchAll("SELECT \(value), \(key) FROM \(table) WHERE \(idColumn) = ?", [entry.id]) { row in
                (value: try row.decode(String?.self, at: 0), key: try row.decode(String?.self, at: 1))
            }
            for row in rows {
                let folded = row.value.map { Folding.fold($0) }
                guard folded != row.key else { continue }
                try db.execute(
                    "UPDATE \(table) SET \(key) = ? WHERE \(idColumn) = ? AND \(value) IS ?",
                    [folded.databaseValue, entry.id, row.value.databaseValue])
                changed += db.changedRowCount
            }
        }
        try db.execute("DELETE FROM catalogue_refold")
        return changed
    }

    /// Checks every key of the catalogue's tables against its value and folds the ones that
    /// differ (`catalogue reindex`); returns how many changed.
    static func refoldAll<R: Record>(_ type: R.Type, on db: Connection) throws -> Int {
        let schema = R.schema
        var changed = 0
        for (key, source) in schema.keyColumnsInOrder {
            let column = schema.columns[source]
            let rows = try db.fetchAll("SELECT id, \(quoted(column)), \(quoted(key)) FROM \(quoted(schema.table))") { row in
                (id: try row.decode(Int64.self, at: 0), value: try row.decode(String?.self, at: 1), key: try row.decode(String?.self, at: 2))
            }
            for row in rows {
                let folded = row.value.map { Folding.fold($0) }
                guard folded != row.key else { continue }
                try db.execute("UPDATE \(quoted(schema.table)) SET \(quoted(key)) = ? WHERE id = ?", [folded.databaseValue, row.id])
                changed += 1
            }
        }
        if let aliases = schema.aliases {
            let rows = try db.fetchAll(
                "SELECT \(quoted(aliases.recordColumn)), \(quoted(aliases.nameColumn)), \(quoted(aliases.keyColumn)) FROM \(quoted(aliases.table))"
            ) { row in (id: try row.decode(Int64.self, at: 0), name: try row.decode(String.self, at: 1), key: try row.decode(String.self, at: 2)) }
            for row in rows where Folding.fold(row.name) != row.key {
                try db.execute(
                    "UPDATE \(quoted(aliases.table)) SET \(quoted(aliases.keyColumn)) = ? WHERE \(quoted(aliases.recordColumn)) = ? AND \(quoted(aliases.nameColumn)) = ?",
                    [Folding.fold(row.name), row.id, row.name])
                changed += 1
            }
        }
        return changed
    }

    private static func quoted(_ identifier: String) -> String {
        SQLiteSchemaText.quoted(identifier)
    }
}

extension SQLiteEngine {
    /// Folds the keys of rows other tools wrote and that wait in the queue (see migration 0003),
    /// in a write transaction of its own; returns how many keys changed. Does nothing when
    /// nothing waits, or when this user cannot write the file.
    ///
    /// A catalogue opened with ``CatalogueAccess/readOnly`` on a file this user can write folds
    /// them too, through a short connection of its own: the keys are data derived from the rows,
    /// not a change of schema, and without them the rows could not be found.
    ///
    /// ```swift
    /// try catalogue.sqlite?.refoldQueuedKeys()
    /// ```
    @discardableResult
    public func refoldQueuedKeys() throws -> Int {
        guard !isReadOnly else {
            guard let configuration = asideConfiguration,
                  try database.inDatabase({ try SQLiteKeyRefolding.hasQueuedRows($0) })
            else { return 0 }
            return try SQLiteKeyRefolding.refoldQueued(atPath: path, configuration: configuration)
        }
        return try database.inDatabase { db in
            guard try SQLiteKeyRefolding.hasQueuedRows(db) else { return 0 }
            return try db.transaction(.immediate) {
                try integrity.verify(db)
                return try SQLiteKeyRefolding.refoldQueuedAndRebuildRanges(on: db)
            }
        }
    }

    /// Checks every folded key of countries, aliases and products against its value and folds
    /// the ones that differ, then empties the queue and builds the key range indexes again
    /// (``SQLiteKeyRangeIndex``: the keys of deleted and renamed rows go) (`catalogue reindex`);
    /// returns how many keys changed.
    @discardableResult
    public func reindexKeys() throws -> Int {
        try checkWritable()
        return try database.write { db in
            try integrity.verify(db)
            let changed = try SQLiteKeyRefolding.refoldAll(Country.self, on: db) + SQLiteKeyRefolding.refoldAll(Product.self, on: db)
            if try SQLiteKeyRefolding.hasQueue(db) { try db.execute("DELETE FROM catalogue_refold") }
            for index in try db.keyRangeIndexes() { try db.rebuildKeyRanges(index) }
            return changed
        }
    }
}
