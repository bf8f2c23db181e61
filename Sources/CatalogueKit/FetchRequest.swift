/// A description of which records to fetch and in what order, the counterpart of
/// `NSFetchRequest`: a predicate, sort descriptors, a limit, an offset and a batch size.
///
/// ```swift
/// var request = FetchRequest<Country>(
///     predicate: .beginsWith("name", "bo", options: .caseAndDiacriticInsensitive),
///     sortDescriptors: FetchSortDescriptor.byName)
/// request.fetchLimit = 50
/// let countries = try catalogue.read { db in try db.fetch(request) }  // Bolivia, Bosnia…, Botswana…
/// ```
///
/// Compiling a request produces the same SQL whatever the search text (the text is bound), so
/// running it again with new text re-binds the cached prepared statement.
public struct FetchRequest<R: Record>: Sendable, Hashable {
    /// Which records (all by default).
    public var predicate: FetchPredicate
    /// The order; rows that tie on every descriptor come in id order.
    public var sortDescriptors: [FetchSortDescriptor]
    /// At most this many records (nil: no limit).
    public var fetchLimit: Int?
    /// Skip this many records first.
    public var fetchOffset: Int
    /// How many records a ``SectionedResultsController`` loads at a time (0: its default).
    public var fetchBatchSize: Int

    public init(
        predicate: FetchPredicate = .true,
        sortDescriptors: [FetchSortDescriptor] = [FetchSortDescriptor("id")],
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0,
        fetchBatchSize: Int = 0
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
    }

    /// The SELECT statement for the records, with LIMIT and OFFSET always bound (so the SQL does
    /// not change with them).
    public func selectSQL() throws -> SQLFragment {
        try select(R.schema.sql.selectColumns, extraColumn: nil, joiningFullText: false)
    }

    /// A SELECT of the given result columns (SQL expressions over the table, e.g. `product.id`)
    /// under this request's predicate, order, limit and offset.
    public func select(_ resultColumns: String) throws -> SQLFragment {
        try select(resultColumns, extraColumn: nil, joiningFullText: false)
    }

    /// The SELECT for the records with, as a last column, `column` with the matched words of
    /// the full-text predicate wrapped in `open` and `close`.
    public func highlightSQL(column: String, open: String, close: String) throws -> SQLFragment {
        guard let fts = R.schema.fullTextTable, let index = R.schema.fullTextColumns.firstIndex(of: column) else {
            throw FetchRequestError.unknownColumn(
                column, table: R.schema.fullTextTable ?? R.schema.table, known: R.schema.fullTextColumns)
        }
        let highlight = SQLFragment(", highlight(\(fts), \(index), ?, ?)", [.text(open), .text(close)])
        return try select(R.schema.sql.selectColumns, extraColumn: highlight, joiningFullText: true)
    }

    /// `SELECT count(*)` of the records the predicate matches (ignoring limit and offset).
    public func countSQL() throws -> SQLFragment {
        let schema = R.schema
        var sql = SQLBuilder()
        sql.append("SELECT count(*) FROM ")
        sql.append(schema.table)
        sql.append(" WHERE ")
        try PredicateCompiler(schema: schema).compile(predicate, into: &sql)
        return sql.fragment()
    }

    /// SELECT, FROM, WHERE, ORDER BY, LIMIT and OFFSET. With `joiningFullText` or a relevance
    /// sort, the FTS table is joined and matched directly, so its rank and auxiliary functions
    /// (`highlight`) are available.
    private func select(_ resultColumns: String, extraColumn: SQLFragment?, joiningFullText: Bool) throws -> SQLFragment {
        let schema = R.schema
        let compiler = PredicateCompiler(schema: schema)
        var sql = SQLBuilder()
        sql.append("SELECT ")
        sql.append(resultColumns)
        if let extraColumn { sql.append(extraColumn) }
        sql.append(" FROM ")
        var rankTable: String?
        if joiningFullText || sortDescriptors.contains(where: { $0.column == nil }) {
            guard let fts = schema.fullTextTable else { throw FetchRequestError.noFullTextTable(table: schema.table) }
            var conjuncts: [FetchPredicate]
            if case .and(let predicates) = predicate { conjuncts = predicates } else { conjuncts = [predicate] }
            guard let index = conjuncts.firstIndex(where: { if case .fullText = $0 { true } else { false } }),
                  case .fullText(let pattern) = conjuncts[index]
            else {
                throw FetchRequestError.relevanceWithoutFullText
            }
            conjuncts.remove(at: index)
            sql.append(fts)
            sql.append(" JOIN ")
            sql.append(schema.table)
            sql.append(" ON ")
            sql.append(schema.qualifiedID)
            sql.append(" = ")
            sql.append(fts)
            sql.append(".rowid WHERE ")
            sql.append(fts)
            sql.append(" MATCH ")
            sql.bind(.text(pattern.rawPattern))
            if !conjuncts.isEmpty {
                sql.append(" AND (")
                try compiler.compile(.and(conjuncts), into: &sql)
                sql.append(")")
            }
            rankTable = fts
        } else {
            sql.append(schema.table)
            sql.append(" WHERE ")
            try compiler.compile(predicate, into: &sql)
        }
        try appendOrder(rankedBy: rankTable, compiler: compiler, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(.integer(Int64(fetchLimit ?? -1)))
        sql.append(" OFFSET ")
        sql.bind(.integer(Int64(fetchOffset)))
        return sql.fragment()
    }

    /// The ORDER BY clause.
    private func appendOrder(rankedBy rankTable: String?, compiler: PredicateCompiler, into sql: inout SQLBuilder) throws {
        let schema = R.schema
        for (index, descriptor) in sortDescriptors.enumerated() {
            sql.append(index == 0 ? " ORDER BY " : ", ")
            guard let column = descriptor.column else {
                guard let rankTable else { throw FetchRequestError.relevanceWithoutFullText }
                sql.append(rankTable)
                sql.append(".rank")
                continue
            }
            let qualified = try compiler.qualified(column)
            if descriptor.options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
               let qualifiedKey = schema.qualifiedColumns[key] {
                sql.append(qualifiedKey)
            } else if !descriptor.options.isEmpty {
                sql.append("\(Catalogue.foldFunctionName)(\(qualified), \(descriptor.options.rawValue))")
            } else {
                sql.append(qualified)
            }
            if !descriptor.ascending { sql.append(" DESC") }
        }
    }
}
