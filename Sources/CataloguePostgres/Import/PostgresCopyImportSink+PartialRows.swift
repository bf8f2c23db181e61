#if PostgreSQL
import CatalogueCore

extension PostgresCopyImportSink {
    /// How many staged rows one FETCH reads while resolving.
    static var resolvingPageSize: Int { 10_000 }

    /// Gives every staged row that lacks some columns the values it has after an upsert in file
    /// order, as SQLite's row-by-row upserts would leave it: its own values where the file has
    /// the column, elsewhere those of the previous row of its natural key in the file, or of the
    /// stored record for the first one (a new record keeps no value there). Keys and tsvector
    /// words are computed from the merged record. The merge (``PostgresStaging/merge(returningIDs:)``) then
    /// compares and writes whole rows, so its counts agree with SQLite's.
    ///
    /// Runs after the COPY, before the merge, in the import's transaction. The record's table is
    /// locked against other writers (`SHARE ROW EXCLUSIVE`, readers go on) until the commit, so
    /// the stored values read here are still the stored ones when the merge writes. Only the
    /// rows of natural keys that have a partial row and a stored record or another row in the
    /// file are read, a page at a time through a cursor; a resolved row replaces its staged row
    /// when its values changed.
    func resolvePartialRows() throws {
        let schema = R.schema
        let table = schema.table
        let stage = PostgresStaging.table
        let key = schema.naturalKey
        let stored = schema.columns
        func sameKey(_ left: String, _ right: String) -> String {
            key.map { "\(left).\($0) = \(right).\($0)" }.joined(separator: " AND ")
        }
        try runner.execute("LOCK TABLE \(table) IN SHARE ROW EXCLUSIVE MODE")
        // Columns: line, assigned, the natural key, the staged values, the stored id and values.
        // The keys with a partial row, and how many rows each has in the file: a partial row of
        // a new key that appears once is inserted as it is, and not read.
        let keys = key.joined(separator: ", ")
        let select = "SELECT s.catalogue_line, s.catalogue_assigned, " + (key + stored).map { "s.\($0)" }.joined(separator: ", ")
            + ", t.id, " + stored.map { "t.\($0)" }.joined(separator: ", ")
            + " FROM \(stage) s"
            + " JOIN (SELECT \(keys), count(*) AS n FROM \(stage) GROUP BY \(keys) HAVING bool_or(catalogue_assigned IS NOT NULL)) k"
            + " ON \(sameKey("k", "s"))"
            + " LEFT JOIN \(table) t ON \(sameKey("t", "s"))"
            + " WHERE k.n > 1 OR t.id IS NOT NULL"
            + " ORDER BY " + key.map { "s.\($0)" }.joined(separator: ", ") + ", s.catalogue_line"
        try runner.execute("DECLARE catalogue_partial_rows NO SCROLL CURSOR FOR \(select)")
        let fetch = "FETCH FORWARD \(Self.resolvingPageSize) FROM catalogue_partial_rows"
        var currentKey: [DatabaseValue] = []
        var base: [DatabaseValue]?
        var resolvedAny = false
        while true {
            let rows = try runner.rows(SQLFragment(fetch))
            var resolved: [(line: Int64, values: [DatabaseValue])] = []
            for postgresRow in rows {
                let row = PostgresRecordRow(postgresRow, sql: select)
                let line = try row.decodeInteger(at: 0)
                let mask = try row.decodeOptionalText(at: 1)
                let rowKey = (0..<key.count).map { row.value(at: 2 + $0) }
                let staged = (0..<stored.count).map { row.value(at: 2 + key.count + $0) }
                let storedStart = 2 + key.count + stored.count
                if rowKey != currentKey {
                    currentKey = rowKey
                    base = try row.decodeOptionalInteger(at: storedStart) == nil
                        ? nil : (0..<stored.count).map { row.value(at: storedStart + 1 + $0) }
                }
                var effective = staged
                if let mask, let previous = base {
                    effective = MergedValuesRow.merge(staged, into: previous, assigned: mask.utf8.map { $0 == UInt8(ascii: "1") })
                    if effective != staged { resolved.append((line, effective)) }
                }
                base = effective
            }
            if !resolved.isEmpty {
                resolvedAny = true
                let copy = staging.startCopy()
                do {
                    for (line, values) in resolved {
                        let record = try R(row: MergedValuesRow(id: nil, values: values))
                        let written = record.writtenValues
                        try PostgresStaging.appendRow(
                            to: copy, line: line, written: written,
                            vectors: PostgresFullText.vectorValues(of: record, values: written), assigned: nil)
                    }
                    try copy.finish()
                } catch {
                    copy.abort()
                    throw error
                }
            }
            if rows.count < Self.resolvingPageSize { break }
        }
        try runner.execute("CLOSE catalogue_partial_rows")
        // The resolved rows (no mask) replace the staged rows of their line.
        if resolvedAny {
            try runner.execute("""
                DELETE FROM \(stage) s WHERE s.catalogue_assigned IS NOT NULL \
                AND EXISTS (SELECT 1 FROM \(stage) r WHERE r.catalogue_line = s.catalogue_line AND r.catalogue_assigned IS NULL)
                """)
        }
    }
}
#endif
