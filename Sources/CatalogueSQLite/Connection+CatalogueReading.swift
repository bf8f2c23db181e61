import CatalogueCore
import SQLiteStore

/// A connection is what SQLite's engine hands to ``Catalogue/read(_:)-6oxrw`` and
/// ``Catalogue/write(_:)-2iykr``: the catalogue's reads run on cached prepared statements.
extension Connection: CatalogueWriting {
    /// SQLite's dialect.
    public var dialect: any SQLDialect {
        SQLiteDialect()
    }

    /// Runs `query` and calls `body` with each row.
    public func forEachRow(_ query: SQLFragment, _ body: (any DatabaseRow) throws -> Void) throws {
        try forEachRow(query.sql, StatementArguments(query.arguments)) { try body($0) }
    }

    /// The records `request` describes, in its order.
    ///
    /// ```swift
    /// let european = try db.fetch(FetchRequest<Country>(predicate: .equals("continent", "Europe")))
    /// ```
    // Specialized for the catalogue's own records: called through the engine's existential, the
    // generic entry point jumps to these, which decode rows without runtime generic lookups.
    @_specialize(where R == Product)
    @_specialize(where R == Country)
    @inlinable
    public func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        let request = try resolvingTypos(in: request)
        if try !readsIntersectionFirst(request),
           let page = try fetchPageThroughKeyRanges(request, select: { try $0.selectSQL(in: SQLiteDialect()) }, { try R(row: $0) }) {
            return page
        }
        let sql = try request.selectSQL(in: plannedDialect(for: request))
        // Room for a page up front; a longer request grows as it reads.
        let expected = min(request.fetchLimit ?? 0, Connection.reservedPageLimit)
        return try fetchAll(sql.sql, StatementArguments(sql.arguments), reservingCapacity: expected) { try R(row: $0) }
    }

    /// The most records ``fetch(_:)`` makes room for before reading: a page's worth.
    @usableFromInline static let reservedPageLimit = 1_000

    /// The records a compiled SELECT of `R`'s columns returns, from the statement cache: a
    /// ``PreparedSearch`` binds its text into SQL compiled once and reads here.
    @_specialize(where R == Product)
    @_specialize(where R == Country)
    @inlinable
    public func fetchRecords<R: Record>(_ query: SQLFragment, as type: R.Type, expectedCount: Int) throws -> [R] {
        try fetchAll(query.sql, StatementArguments(query.arguments), reservingCapacity: expectedCount) { try R(row: $0) }
    }

    /// How many records match the request's predicate (limit and offset ignored), counted in
    /// SQL without loading a row.
    @inlinable
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        let request = try resolvingTypos(in: request)
        let sql = try request.countSQL(in: plannedDialect(for: request, work: .everyMatch))
        return try scalar(sql.sql, StatementArguments(sql.arguments)) ?? 0
    }

    /// How many records match the request's predicate, counting no further than `limit` (see
    /// ``CatalogueReading/fetchCount(_:stoppingAfter:)``).
    @inlinable
    public func fetchCount<R: Record>(_ request: FetchRequest<R>, stoppingAfter limit: Int) throws -> Int {
        let request = try resolvingTypos(in: request)
        if try !readsIntersectionFirst(request), let counted = try countThroughKeyRanges(request, stoppingAfter: limit) {
            return counted
        }
        let sql = try request.countSQL(in: plannedDialect(for: request, work: .cappedCount), stoppingAfter: limit)
        return try scalar(sql.sql, StatementArguments(sql.arguments)) ?? 0
    }

    /// The ids of the records `request` describes, in its order.
    @inlinable
    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64] {
        let request = try resolvingTypos(in: request)
        if try !readsIntersectionFirst(request), let page = try fetchPageThroughKeyRanges(
            request, select: { try $0.select(R.schema.qualifiedID, in: SQLiteDialect()) }, { $0.statement.int64(at: 0) }) {
            return page
        }
        let sql = try request.select(R.schema.qualifiedID, in: plannedDialect(for: request))
        return try fetchAll(sql.sql, StatementArguments(sql.arguments)) { $0.statement.int64(at: 0) }
    }

    /// Calls `body` with each record's id and the first characters of `column` and its key,
    /// read from SQLite's buffers without creating strings.
    public func forEachSectionRow<R: Record>(
        _ request: FetchRequest<R>, column: String,
        _ body: (_ id: Int64, _ first: Unicode.Scalar?, _ foldedFirst: Unicode.Scalar?) -> Void
    ) throws {
        let schema = R.schema
        let (qualified, qualifiedKey) = try schema.qualifiedColumnAndKey(column)
        var unlimited = try resolvingTypos(in: request)
        unlimited.fetchLimit = nil
        unlimited.fetchOffset = 0
        let sql = try unlimited.select("\(schema.qualifiedID), \(qualified), \(qualifiedKey)", in: plannedDialect(for: unlimited))
        try forEachRow(sql.sql, StatementArguments(sql.arguments)) { row in
            let statement = row.statement
            body(statement.int64(at: 0), statement.firstScalar(at: 1), statement.firstScalar(at: 2))
        }
    }

    /// SQLite's plan for the request's SELECT, one line per step ("SEARCH country USING INDEX …").
    public func explainQueryPlan<R: Record>(_ request: FetchRequest<R>) throws -> [String] {
        let request = try resolvingTypos(in: request)
        let sql = try request.selectSQL(in: plannedDialect(for: request))
        return try fetchAll("EXPLAIN QUERY PLAN " + sql.sql, StatementArguments(sql.arguments)) {
            try $0.decode(String.self, named: "detail")
        }
    }
}

extension FetchRequest {
    /// The SELECT statement for the records in SQLite's dialect (see ``selectSQL(in:)``).
    public func selectSQL() throws -> SQLFragment {
        try selectSQL(in: SQLiteDialect())
    }

    /// A SELECT of the given result columns in SQLite's dialect (see ``select(_:in:)``).
    public func select(_ resultColumns: String) throws -> SQLFragment {
        try select(resultColumns, in: SQLiteDialect())
    }

    /// `SELECT count(*)` in SQLite's dialect (see ``countSQL(in:)``).
    public func countSQL() throws -> SQLFragment {
        try countSQL(in: SQLiteDialect())
    }
}
