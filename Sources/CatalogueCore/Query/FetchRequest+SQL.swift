/// The SQL of a request, in an engine's dialect: the one place where requests become SQL.
///
/// ```swift
/// let request = CatalogueSearch.countries(matching: "bog", scope: .capital)
/// let select = try request.selectSQL(in: dialect)
/// select.sql        // "SELECT country.id, … FROM country WHERE country.capital_key >= ? AND … LIMIT ? OFFSET ?"
/// select.arguments  // ["bog", "boh", -1, 0]
/// ```
extension FetchRequest {
    /// The SELECT statement for the records (`id`, then the schema's columns), with LIMIT and
    /// OFFSET always bound, so the SQL does not change with them.
    public func selectSQL(in dialect: some SQLDialect) throws -> SQLFragment {
        try select(R.schema.selectColumns, in: dialect)
    }

    /// A SELECT of the given result columns (SQL expressions over the table, e.g. `product.id`)
    /// under this request's predicate, order, limit and offset.
    public func select(_ resultColumns: String, in dialect: some SQLDialect) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        try appendSelect(resultColumns, dialect: dialect, into: &sql)
        return sql.fragment()
    }

    /// `SELECT count(*)` of the records the predicate matches (ignoring limit and offset).
    public func countSQL(in dialect: some SQLDialect) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        sql.append("SELECT count(*)")
        try appendFromWhere(dialect: dialect, into: &sql)
        return sql.fragment()
    }

    /// `SELECT count(*)` of at most `limit` matching records: the count statement stops at the
    /// `limit`-th match instead of visiting every one (for "more than 1,000 items found").
    ///
    /// ```swift
    /// let sql = try CatalogueSearch.products(matching: "a", mode: .contains).countSQL(in: dialect, stoppingAfter: 1_001)
    /// sql.sql   // "SELECT count(*) FROM (SELECT 1 FROM product WHERE instr(product.name_key, ?) > 0 LIMIT ?) AS counted"
    /// ```
    public func countSQL(in dialect: some SQLDialect, stoppingAfter limit: Int) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        sql.append("SELECT count(*) FROM (SELECT 1")
        try appendFromWhere(dialect: dialect, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(.integer(Int64(max(0, limit))))
        sql.append(") AS counted")
        return sql.fragment()
    }

    /// ` FROM table WHERE predicate`, the part every count shares.
    private func appendFromWhere(dialect: some SQLDialect, into sql: inout SQLBuilder) throws {
        let schema = R.schema
        sql.append(" FROM ")
        sql.append(schema.table)
        sql.append(" WHERE ")
        try PredicateCompiler(schema: schema, dialect: dialect).compile(predicate, into: &sql)
    }

    /// SELECT, FROM, WHERE, ORDER BY, LIMIT and OFFSET. With a relevance sort, the dialect
    /// writes the source and the full-text condition (so its rank is available to ORDER BY).
    private func appendSelect(_ resultColumns: String, dialect: some SQLDialect, into sql: inout SQLBuilder) throws {
        let schema = R.schema
        let compiler = PredicateCompiler(schema: schema, dialect: dialect)
        sql.append("SELECT ")
        sql.append(resultColumns)
        sql.append(" FROM ")
        var rankOrder: String?
        if sortDescriptors.contains(where: { $0.column == nil }) {
            guard schema.fullTextTable != nil else { throw FetchRequestError.noFullTextTable(table: schema.table) }
            var conjuncts: [FetchPredicate]
            if case .and(let predicates) = predicate { conjuncts = predicates } else { conjuncts = [predicate] }
            guard let index = conjuncts.firstIndex(where: { if case .fullText = $0 { true } else { false } }),
                  case .fullText(let pattern) = conjuncts[index]
            else {
                throw FetchRequestError.relevanceWithoutFullText
            }
            conjuncts.remove(at: index)
            rankOrder = try dialect.appendRankedSource(pattern, schema: schema, into: &sql)
            if !conjuncts.isEmpty {
                sql.append(" AND (")
                try compiler.compile(.and(conjuncts), into: &sql)
                sql.append(")")
            }
        } else {
            sql.append(schema.table)
            sql.append(" WHERE ")
            try compiler.compile(predicate, into: &sql)
        }
        try appendOrder(rankOrder: rankOrder, compiler: compiler, dialect: dialect, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(fetchLimit.map { .integer(Int64($0)) } ?? dialect.unlimited)
        sql.append(" OFFSET ")
        sql.bind(.integer(Int64(fetchOffset)))
    }

    /// The ORDER BY clause.
    private func appendOrder(
        rankOrder: String?, compiler: PredicateCompiler, dialect: some SQLDialect, into sql: inout SQLBuilder
    ) throws {
        let schema = R.schema
        for (index, descriptor) in sortDescriptors.enumerated() {
            sql.append(index == 0 ? " ORDER BY " : ", ")
            guard let column = descriptor.column else {
                guard let rankOrder else { throw FetchRequestError.relevanceWithoutFullText }
                sql.append(rankOrder)
                continue
            }
            let qualified = try compiler.qualified(column)
            let sorted: String
            let sortedColumn: String
            if descriptor.options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
               let qualifiedKey = schema.qualifiedColumns[key] {
                (sorted, sortedColumn) = (qualifiedKey, key)
            } else if !descriptor.options.isEmpty {
                (sorted, sortedColumn) = (try dialect.foldedExpression(qualified, options: descriptor.options), column)
            } else {
                (sorted, sortedColumn) = (qualified, column)
            }
            sql.append(dialect.orderTerm(sorted, ascending: descriptor.ascending, table: schema.table, column: sortedColumn))
        }
    }
}
