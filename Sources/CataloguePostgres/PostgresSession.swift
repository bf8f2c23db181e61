#if PostgreSQL
import CatalogueCore
import PostgresNIO

/// What the PostgreSQL engine hands to ``Catalogue/read(_:)-6oxrw``, ``Catalogue/write(_:)-2iykr`` and the
/// per-statement reads: it runs the catalogue's SQL on the pool (statement by statement) or on
/// the one connection of a transaction, and decodes the rows on the calling thread.
///
/// Not `Sendable`: a session belongs to the call that received it.
final class PostgresSession: CatalogueWriting {
    let runner: PostgresStatementRunner
    /// Rows written, per table, for the change this transaction publishes at commit.
    private(set) var changedRows: [String: Set<Int64>] = [:]
    /// Tables written without knowing which rows (deleteAll), or more rows than
    /// ``changedIDLimit``.
    private(set) var changedTables: Set<String> = []
    /// Tables a bulk upsert merged staged rows into (``upsertStaged(_:on:)``), whose GIN indexes'
    /// pending entries the engine merges after the commit.
    var stagedTables: Set<String> = []

    init(runner: PostgresStatementRunner) {
        self.runner = runner
    }

    var dialect: any SQLDialect {
        PostgresDialect()
    }

    func forEachRow(_ query: SQLFragment, _ body: (any DatabaseRow) throws -> Void) throws {
        for row in try runner.rows(query) {
            try body(PostgresRecordRow(row, sql: query.sql))
        }
    }

    // Specialized for the catalogue's own records (see SQLite's Connection.fetch): the generic
    // entry point, called through the engine's existential, jumps to these.
    @_specialize(where R == Product)
    @_specialize(where R == Country)
    func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        let request = try resolvingTypos(in: request)
        return try fetchRecords(try request.selectSQL(in: PostgresDialect()), as: R.self, expectedCount: 0)
    }

    @_specialize(where R == Product)
    @_specialize(where R == Country)
    func fetchRecords<R: Record>(_ query: SQLFragment, as type: R.Type, expectedCount: Int) throws -> [R] {
        let rows = try runner.rows(query)
        var records: [R] = []
        // The rows are all received already: room for exactly them.
        records.reserveCapacity(rows.count)
        for row in rows {
            records.append(try R(row: PostgresRecordRow(row, sql: query.sql)))
        }
        return records
    }

    func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        let request = try resolvingTypos(in: request)
        let sql = try request.countSQL(in: PostgresDialect())
        return Int(try runner.integer(sql.sql, sql.arguments))
    }

    func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64] {
        let request = try resolvingTypos(in: request)
        let sql = try request.select(R.schema.qualifiedID, in: PostgresDialect())
        return try runner.rows(sql).map { try PostgresRecordRow($0, sql: sql.sql).decodeInteger(at: 0) }
    }

    /// The words of `schema`'s vectors that start with `first`, from `catalogue_word`
    /// (migration 0004), in bytewise order.
    func fullTextVocabulary(of schema: RecordSchema, startingWith first: String) throws -> [String] {
        guard PostgresFullText.vectors(of: schema) != nil, !first.isEmpty else { return [] }
        var sql = "SELECT word FROM catalogue_word WHERE source = $1 AND word >= $2"
        var arguments: [DatabaseValue] = [.text(schema.table), .text(first)]
        if let upper = FetchPredicate.prefixSuccessor(of: first) {
            sql += " AND word < $3"
            arguments.append(.text(upper))
        }
        sql += " ORDER BY word"
        return try runner.rows(SQLFragment(sql, arguments)).map { try PostgresRecordRow($0, sql: sql).decodeText(at: 0) }
    }

    // MARK: - Writes

    @discardableResult
    func insert<R: Record>(_ record: R) throws -> R {
        let sql = R.schema.postgres
        let id = try runner.integer(sql.insert, PostgresRecordSQL.values(of: record))
        var saved = record
        saved.id = id
        try writeAliases(of: saved, replacing: false)
        noteChanged(R.self, id: id)
        return saved
    }

    @discardableResult
    func upsert<R: Record>(_ record: R) throws -> (record: R, outcome: UpsertOutcome) {
        let sql = R.schema.postgres
        let rows = try runner.rows(SQLFragment(sql.upsert, PostgresRecordSQL.values(of: record)))
        guard let first = rows.first else {
            throw RecordError.notFound(table: R.schema.table, id: -1)
        }
        let row = PostgresRecordRow(first, sql: sql.upsert)
        var saved = record
        saved.id = try row.decodeInteger(at: 0)
        let outcome: UpsertOutcome = switch try row.decodeOptionalInteger(at: 1) {
        case nil: .unchanged
        case 0?: .updated
        default: .inserted
        }
        if outcome != .unchanged {
            try writeAliases(of: saved, replacing: outcome == .updated)
            noteChanged(R.self, id: saved.id!)
        }
        return (saved, outcome)
    }

    func update<R: Record>(_ record: R) throws {
        guard let id = record.id else { throw RecordError.missingID(table: R.schema.table) }
        let sql = R.schema.postgres
        let rows = try runner.rows(SQLFragment(sql.update, PostgresRecordSQL.values(of: record) + [.integer(id)]))
        guard !rows.isEmpty else { throw RecordError.notFound(table: R.schema.table, id: id) }
        try writeAliases(of: record, replacing: true)
        noteChanged(R.self, id: id)
    }

    @discardableResult
    func delete<R: Record>(_ type: R.Type, id: Int64) throws -> Bool {
        let deleted = try !runner.rows(SQLFragment(R.schema.postgres.deleteByID, [.integer(id)])).isEmpty
        if deleted { noteChanged(R.self, id: id) }
        return deleted
    }

    @discardableResult
    func deleteAll<R: Record>(_ type: R.Type) throws -> Int {
        let count = Int(try runner.integer(R.schema.postgres.deleteAll))
        if count > 0 { changedTables.insert(R.schema.table) }
        return count
    }

    /// Upserts `records` in order, inside the write's transaction (all land, or none when one
    /// throws). Records without aliases (products) go by COPY into a staging table merged by one
    /// statement when there are ``stagedUpsertThreshold`` or more (by `underestimatedCount`;
    /// ``upsertStaged(_:on:)``), else up to 500 to a statement
    /// (`PostgresRecordSQL.recordsPerBatch`), a natural key at most once in each, so that a
    /// later record of a key still wins and the counts are those of one statement a record,
    /// which took 55 s for 20,160 products (a round trip and the change-log trigger each).
    /// Records with aliases (countries) go one by one, their aliases after them.
    @discardableResult
    func upsert<S: Sequence>(contentsOf records: S) throws -> UpsertCounts where S.Element: Record {
        let schema = S.Element.schema
        var counts = UpsertCounts()
        guard schema.aliases == nil, !schema.naturalKey.isEmpty else {
            for record in records {
                counts.record(try upsert(record).outcome)
            }
            return counts
        }
        if records.underestimatedCount >= Self.stagedUpsertThreshold, case .connection(let connection) = runner.target {
            return try upsertStaged(records, on: connection)
        }
        let sql = schema.postgres
        var batch: [DatabaseValue] = []
        var keys: Set<[DatabaseValue]> = []
        func writeBatch() throws {
            guard !keys.isEmpty else { return }
            try upsertBatch(of: S.Element.self, values: batch, rows: keys.count, counts: &counts)
            batch.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        }
        for record in records {
            let values = PostgresRecordSQL.values(of: record)
            let key = sql.naturalKeyIndexes.map { values[$0] }
            if keys.contains(key) || keys.count == sql.recordsPerBatch {
                try writeBatch()
            }
            keys.insert(key)
            batch += values
        }
        try writeBatch()
        return counts
    }

    /// One statement of ``upsert(contentsOf:)``: `rows` records whose natural keys differ.
    private func upsertBatch<R: Record>(of type: R.Type, values: [DatabaseValue], rows: Int, counts: inout UpsertCounts) throws {
        let statement = R.schema.postgres.batchUpsert(rows: rows)
        let written = try runner.rows(SQLFragment(statement, values))
        for result in written {
            let row = PostgresRecordRow(result, sql: statement)
            noteChanged(R.self, id: try row.decodeInteger(at: 0))
            if try row.decodeInteger(at: 1) == 0 {
                counts.updated += 1
            } else {
                counts.inserted += 1
            }
        }
        counts.unchanged += rows - written.count
    }

    /// Writes the aliases of `record` (stored, with its id), replacing its stored ones if asked.
    func writeAliases<R: Record>(of record: R, replacing: Bool) throws {
        let sql = R.schema.postgres
        guard let insert = sql.insertAlias, let id = record.id else { return }
        if let invalid = record.aliases.first(where: { $0.contains(";") }) {
            throw RecordError.invalidAlias(invalid)
        }
        if replacing, let delete = sql.deleteAliases {
            try runner.execute(delete, [.integer(id)])
        }
        for alias in AliasTable.normalized(record.aliases) {
            try runner.execute(insert, [.integer(id), .text(alias), .text(Folding.fold(alias))])
        }
    }

    /// How many written rows of a table the change published at commit names; beyond it, the
    /// change names the table only (as SQLite's `RowChanges.idLimit`), so that a bulk write of a
    /// million rows does not keep a million ids.
    static var changedIDLimit: Int { 10_000 }

    /// Notes a written row, for the change published at commit.
    func noteChanged<R: Record>(_ type: R.Type, id: Int64) {
        let table = R.schema.table
        guard !changedTables.contains(table) else { return }
        changedRows[table, default: []].insert(id)
        if changedRows[table]!.count > Self.changedIDLimit {
            changedRows[table] = nil
            changedTables.insert(table)
        }
    }

    /// The change this session's writes made, if any (for publishing at commit).
    var change: DatabaseChange? {
        guard !changedRows.isEmpty || !changedTables.isEmpty else { return nil }
        let tables = Set(changedRows.keys).union(changedTables)
        return DatabaseChange(
            tables: tables, rowIDs: changedRows.filter { !changedTables.contains($0.key) }, origin: .thisCatalogue)
    }
}
#endif
