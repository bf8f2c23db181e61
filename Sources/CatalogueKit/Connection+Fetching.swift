extension Connection {
    /// The records `request` describes, in its order.
    ///
    /// ```swift
    /// let european = try db.fetch(FetchRequest<Country>(predicate: .equals("continent", "Europe")))
    /// ```
    @inlinable
    public func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        let sql = try request.selectSQL()
        return try fetchAll(sql.sql, StatementArguments(sql.arguments)) { try R(row: $0) }
    }

    /// The first record `request` describes, if any.
    public func fetchFirst<R: Record>(_ request: FetchRequest<R>) throws -> R? {
        var request = request
        request.fetchLimit = 1
        return try fetch(request).first
    }

    /// How many records match the request's predicate (limit and offset ignored), counted in
    /// SQL without loading a row.
    @inlinable
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        let sql = try request.countSQL()
        return try scalar(sql.sql, StatementArguments(sql.arguments)) ?? 0
    }

    /// The ids of the records `request` describes, in its order.
    @inlinable
    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64] {
        let sql = try request.select("\(R.schema.table).id")
        return try fetchAll(sql.sql, StatementArguments(sql.arguments)) { $0.statement.int64(at: 0) }
    }

    /// The records with their `column` highlighted: the words matching the request's full-text
    /// predicate are wrapped in `open` and `close`.
    ///
    /// ```swift
    /// let request = CatalogueSearch.countries(matching: "united ki", mode: .words)
    /// let hits = try db.fetchHighlighted(request, column: "name")
    /// hits.first?.highlighted  // "[United] [Kingdom]"
    /// ```
    public func fetchHighlighted<R: Record>(
        _ request: FetchRequest<R>, column: String, open: String = "[", close: String = "]"
    ) throws -> [(record: R, highlighted: String)] {
        let sql = try request.highlightSQL(column: column, open: open, close: close)
        let highlightIndex = R.schema.selection.count
        return try fetchAll(sql.sql, StatementArguments(sql.arguments)) { row in
            (try R(row: row), row.statement.string(at: highlightIndex))
        }
    }

    /// SQLite's plan for the request's SELECT, one line per step ("SEARCH country USING INDEX …").
    public func explainQueryPlan<R: Record>(_ request: FetchRequest<R>) throws -> [String] {
        let sql = try request.selectSQL()
        return try fetchAll("EXPLAIN QUERY PLAN " + sql.sql, StatementArguments(sql.arguments)) {
            try $0.decode(String.self, named: "detail")
        }
    }
}
