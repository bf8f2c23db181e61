extension Connection {
    /// Runs a query from the statement cache and transforms every row. `reservingCapacity` is
    /// how many rows to make room for up front (a page's limit), so the result is not
    /// reallocated as it grows.
    ///
    /// ```swift
    /// let names = try db.fetchAll("SELECT name FROM country WHERE continent = ?", ["Europe"]) {
    ///     try $0.decode(String.self, at: 0)
    /// }
    /// ```
    @inlinable
    public func fetchAll<T>(
        _ sql: String, _ arguments: StatementArguments = [], reservingCapacity: Int = 0, _ transform: (Row) throws -> T
    ) throws -> [T] {
        var results: [T] = []
        results.reserveCapacity(reservingCapacity)
        try forEachRow(sql, arguments) { results.append(try transform($0)) }
        return results
    }

    /// Runs a query from the statement cache and transforms its first row, if any.
    @inlinable
    public func fetchOne<T>(
        _ sql: String, _ arguments: StatementArguments = [], _ transform: (Row) throws -> T
    ) throws -> T? {
        let statement = try prepared(sql, arguments)
        statement.isReadingRows = true
        defer {
            statement.isReadingRows = false
            statement.reset()
        }
        return try statement.step() ? transform(Row(statement: statement)) : nil
    }

    /// Runs a query from the statement cache and calls `body` with each row in turn.
    @inlinable
    public func forEachRow(
        _ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void
    ) throws {
        let statement = try prepared(sql, arguments)
        statement.isReadingRows = true
        defer {
            statement.isReadingRows = false
            statement.reset()
        }
        let row = Row(statement: statement)
        while try statement.step() {
            try body(row)
        }
    }

    /// The first column of the first row, converted to `T`; nil when there is no row or the
    /// value is NULL.
    ///
    /// ```swift
    /// let count: Int? = try db.scalar("SELECT count(*) FROM product")
    /// ```
    public func scalar<T: DatabaseValueConvertible>(
        _ sql: String, _ arguments: StatementArguments = []
    ) throws -> T? {
        try fetchOne(sql, arguments) { row -> T? in
            let value = row[0]
            if value.isNull { return nil }
            return try row.decode(T.self, at: 0)
        } ?? nil
    }

    @usableFromInline
    func prepared(_ sql: String, _ arguments: StatementArguments) throws -> Statement {
        let statement = try cachedStatement(sql)
        if !arguments.isEmpty || statement.parameterCount > 0 {
            try statement.bind(arguments)
        }
        return statement
    }
}
