import CatalogueCore
import Foundation
import SQLiteStore

extension Connection {
    /// The key range indexes of this database (``SQLiteKeyRangeIndex``), found by their insert
    /// triggers (`table_key_range_after_insert` on `table`). The table's and the key's names,
    /// read from the file, go into statements unquoted: only plain ones (letters, digits,
    /// underscores) are taken, as CatalogueKit names them.
    func keyRangeIndexes() throws -> [SQLiteKeyRangeIndex] {
        try remembered("key range indexes") {
            let suffix = SQLiteKeyRangeIndex.insertTriggerSuffix
            return try fetchAll("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name") {
                (name: try $0.decode(String.self, at: 0), table: try $0.decode(String.self, at: 1))
            }
            .compactMap { trigger -> SQLiteKeyRangeIndex? in
                let prefix = trigger.table + "_"
                guard trigger.name.hasPrefix(prefix), trigger.name.hasSuffix(suffix),
                      trigger.name.count > prefix.count + suffix.count
                else { return nil }
                let key = String(trigger.name.dropFirst(prefix.count).dropLast(suffix.count))
                guard FullTextMembership.isPlainIdentifier(trigger.table), FullTextMembership.isPlainIdentifier(key) else { return nil }
                return SQLiteKeyRangeIndex(recordTable: trigger.table, keyColumn: key)
            }
        }
    }

    /// Rebuilds every range that ``SQLiteKeyRangeIndex/keysPerRange`` keys or more were added
    /// to since it was built: its documents become its current keys, split into ranges of
    /// about that many keys when it has grown. Called at the end of CatalogueKit's write
    /// transactions; quick when no range has grown (a lookup in a partial index).
    ///
    /// ```swift
    /// try db.transaction(.immediate) {
    ///     try db.upsert(Product(name: "Lamp", type: "light"))
    ///     try db.rebuildGrownKeyRanges()
    /// }
    /// ```
    public func rebuildGrownKeyRanges() throws {
        for index in try keyRangeIndexes() {
            let grown: [Int64] = try fetchAll(
                "SELECT id FROM \(index.rangeTable) WHERE appended >= \(SQLiteKeyRangeIndex.keysPerRange)") {
                    $0.statement.int64(at: 0)
                }
            for id in grown {
                guard try rebuildKeyRange(id, of: index) else {
                    // No room for the split between this range's id and the next: renumber all.
                    try rebuildKeyRanges(index)
                    break
                }
            }
        }
    }

    /// Rebuilds range `id` from its current keys; false when it must split and its id has no
    /// room before the next range's.
    private func rebuildKeyRange(_ id: Int64, of index: SQLiteKeyRangeIndex) throws -> Bool {
        let bounds = try fetchOne(index.boundsSQL, [id]) { row in
            (first: row.statement.string(at: 0),
             nextID: row.statement.isNull(at: 1) ? SQLiteKeyRangeIndex.idLimit : row.statement.int64(at: 1),
             nextFirst: row.statement.isNull(at: 2) ? nil : row.statement.string(at: 2))
        }
        guard let bounds else { return true }
        let key = index.keyColumn
        // No next range: a blob, which SQLite sorts after every text.
        let upper: DatabaseValue = bounds.nextFirst.map { .text($0) } ?? .blob(Data([0xFF]))
        let keys: [String] = try fetchAll(
            "SELECT \(key) FROM \(index.recordTable) WHERE \(key) >= ? AND \(key) < ? AND \(key) <> '' ORDER BY \(key)",
            StatementArguments([.text(bounds.first), upper])
        ) { $0.statement.string(at: 0) }
        var cutter = KeyRunCutter()
        var runs = keys.compactMap { cutter.add($0) }
        if let last = cutter.finish() { runs.append(last) }
        let step = (bounds.nextID - id) / Int64(max(runs.count, 1))
        guard runs.count <= 1 || step >= 1 else { return false }
        try execute("DELETE FROM \(index.trigramTable) WHERE rowid >= ? AND rowid < ?", [id << 32, (id + 1) << 32])
        for (offset, run) in runs.enumerated() {
            let rangeID = id + Int64(offset) * step
            if offset > 0 {
                try execute("INSERT INTO \(index.rangeTable) (id, first_key) VALUES (?, ?)", [rangeID, run[0]])
            }
            try execute("INSERT INTO \(index.trigramTable) (rowid, keys) VALUES (?, ?)", [rangeID << 32, SQLiteKeyRangeIndex.document(of: run)])
        }
        try execute("UPDATE \(index.rangeTable) SET appended = 0 WHERE id = ?", [id])
        return true
    }


    /// Builds the whole index again from the table's keys, read once in order from the key's
    /// index: a range for each run of ``SQLiteKeyRangeIndex/keysPerRange`` keys, its ids
    /// ``SQLiteKeyRangeIndex/idSpacing`` apart, the first at `''`.
    func rebuildKeyRanges(_ index: SQLiteKeyRangeIndex) throws {
        try execute("DELETE FROM \(index.rangeTable)")
        try execute("DROP TABLE \(index.trigramTable)")
        try execute(index.trigramTableSQL)
        let insertRange = try cachedStatement("INSERT INTO \(index.rangeTable) (id, first_key) VALUES (?, ?)")
        let insertKeys = try cachedStatement("INSERT INTO \(index.trigramTable) (rowid, keys) VALUES (?, ?)")
        var ordinal: Int64 = 0
        func write(_ run: [String]) throws {
            let id = ordinal * SQLiteKeyRangeIndex.idSpacing
            try insertRange.execute([id, ordinal == 0 ? "" : run[0]])
            if !run.isEmpty { try insertKeys.execute([id << 32, SQLiteKeyRangeIndex.document(of: run)]) }
            ordinal += 1
        }
        var cutter = KeyRunCutter()
        let key = index.keyColumn
        // The documents go into the new table in one pass, merged once at the end.
        try FullTextBulkLoad.run(into: index.trigramTable, on: self) {
            try forEachRow("SELECT \(key) FROM \(index.recordTable) WHERE \(key) <> '' ORDER BY \(key)") { row in
                if let run = cutter.add(row.statement.string(at: 0)) { try write(run) }
            }
            // The last run; or, for an empty table, the first range alone.
            if let run = cutter.finish() { try write(run) } else if ordinal == 0 { try write([]) }
        }
    }

    /// Adds the keys of the rows inserted with ids above `lastID` to their ranges, as the insert
    /// trigger would have, in three statements: one document per range that got keys.
    func addKeysToRanges(_ index: SQLiteKeyRangeIndex, insertedAfter lastID: Int64) throws {
        let added = "temp.catalogue_added_\(index.rangeTable)"
        try execute(
            """
            CREATE TEMP TABLE catalogue_added_\(index.rangeTable) AS
            SELECT range_id, \(SQLiteKeyRangeIndex.documentSQL(ofKeysIn: "key")) AS keys, count(*) AS added FROM (
                SELECT \(index.keyColumn) AS key, (\(index.rangeLookup("\(index.recordTable).\(index.keyColumn)"))) AS range_id
                FROM \(index.recordTable) WHERE id > ? AND \(index.keyColumn) <> ''
            ) GROUP BY range_id
            """, [lastID])
        defer { try? execute("DROP TABLE IF EXISTS \(added)") }
        try execute(
            """
            INSERT INTO \(index.trigramTable) (rowid, keys)
            SELECT (r.id << 32) | (r.appended + 1), a.keys FROM \(added) AS a JOIN \(index.rangeTable) AS r ON r.id = a.range_id
            """)
        try execute(
            """
            UPDATE \(index.rangeTable) SET appended = appended + a.added FROM \(added) AS a
            WHERE \(index.rangeTable).id = a.range_id
            """)
    }
}

/// Cuts keys, read in order, into the runs a range holds when it is built:
/// ``SQLiteKeyRangeIndex/keysPerRange`` keys, or a few more, since a run never ends between
/// equal keys.
struct KeyRunCutter {
    private var run: [String] = []

    /// Adds the next key; returns the run it closes, if any.
    mutating func add(_ key: String) -> [String]? {
        var closed: [String]?
        if run.count >= SQLiteKeyRangeIndex.keysPerRange, key != run.last {
            closed = run
            run = []
        }
        run.append(key)
        return closed
    }

    /// The last run; nil when no key was added since the last run closed.
    mutating func finish() -> [String]? {
        defer { run = [] }
        return run.isEmpty ? nil : run
    }
}
