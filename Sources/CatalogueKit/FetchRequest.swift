/// A description of which records to fetch and in what order, the counterpart of
/// `NSFetchRequest`: a predicate, sort descriptors, a limit, an offset and a batch size.
///
/// ```swift
/// var request = FetchRequest<Country>(
///     predicate: .beginsWith("name", "bo", options: .caseAndDiacriticInsensitive),
///     sortDescriptors: SortDescriptor.byName)
/// request.fetchLimit = 50
/// let countries = try catalogue.read { db in try db.fetch(request) }  // Bolivia, Bosnia…, Botswana…
/// ```
///
/// Compiling a request produces the same SQL whatever the search text (the text is bound), so
/// running it again with new text re-binds the cached prepared statement.
public struct FetchRequest<R: Record>: Sendable, Hashable {
    /// Which records (all by default).
    public var predicate: Predicate
    /// The order; rows that tie on every descriptor come in id order.
    public var sortDescriptors: [SortDescriptor]
    /// At most this many records (nil: no limit).
    public var fetchLimit: Int?
    /// Skip this many records first.
    public var fetchOffset: Int
    /// How many records a ``SectionedResultsController`` loads at a time (0: its default).
    public var fetchBatchSize: Int

    public init(
        predicate: Predicate = .true,
        sortDescriptors: [SortDescriptor] = [SortDescriptor("id")],
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
        try select(R.schema.sql.selectColumns)
    }

    /// A SELECT of the given result columns (SQL expressions over the table, e.g. `product.id`)
    /// under this request's predicate, order, limit and offset.
    public func select(_ resultColumns: String) throws -> SQLFragment {
        let source = try sourceAndCondition()
        var fragment = SQLFragment("SELECT \(resultColumns) FROM ") + source.from + SQLFragment(" WHERE ") + source.condition
        fragment += try orderBy(rankedBy: source.rankTable)
        fragment += SQLFragment(" LIMIT ? OFFSET ?", [.integer(Int64(fetchLimit ?? -1)), .integer(Int64(fetchOffset))])
        return fragment
    }

    /// `SELECT count(*)` of the records the predicate matches (ignoring limit and offset).
    public func countSQL() throws -> SQLFragment {
        let table = R.schema.table
        return SQLFragment("SELECT count(*) FROM \(table) WHERE ") + (try PredicateCompiler(schema: R.schema).compile(predicate))
    }

    /// The ORDER BY clause.
    func orderBy(rankedBy rankTable: String?) throws -> SQLFragment {
        let compiler = PredicateCompiler(schema: R.schema)
        var terms: [String] = []
        for descriptor in sortDescriptors {
            guard let column = descriptor.column else {
                guard let rankTable else { throw FetchRequestError.relevanceWithoutFullText }
                terms.append("\(rankTable).rank")
                continue
            }
            var expression = try compiler.qualified(column)
            if descriptor.options == .caseAndDiacriticInsensitive, let key = R.schema.keyColumn(for: column) {
                expression = "\(R.schema.table).\(key)"
            } else if !descriptor.options.isEmpty {
                expression = "\(Catalogue.foldFunctionName)(\(expression), \(descriptor.options.rawValue))"
            }
            terms.append(descriptor.ascending ? expression : expression + " DESC")
        }
        return terms.isEmpty ? SQLFragment("") : SQLFragment(" ORDER BY " + terms.joined(separator: ", "))
    }

    /// FROM and WHERE. With a relevance sort, the FTS table is joined and matched directly, so
    /// its rank is available.
    private func sourceAndCondition() throws -> (from: SQLFragment, condition: SQLFragment, rankTable: String?) {
        let schema = R.schema
        let compiler = PredicateCompiler(schema: schema)
        let table = schema.table
        guard sortDescriptors.contains(where: { $0.column == nil }) else {
            return (SQLFragment(table), try compiler.compile(predicate), nil)
        }
        guard let fts = schema.fullTextTable else { throw FetchRequestError.noFullTextTable(table: table) }
        var conjuncts: [Predicate]
        if case .and(let predicates) = predicate { conjuncts = predicates } else { conjuncts = [predicate] }
        guard let index = conjuncts.firstIndex(where: { if case .fullText = $0 { true } else { false } }),
              case .fullText(let pattern) = conjuncts[index]
        else {
            throw FetchRequestError.relevanceWithoutFullText
        }
        conjuncts.remove(at: index)
        var condition = SQLFragment("\(fts) MATCH ?", [.text(pattern.rawPattern)])
        if !conjuncts.isEmpty {
            condition += SQLFragment(" AND ") + (try compiler.compile(.and(conjuncts))).parenthesized
        }
        return (SQLFragment("\(fts) JOIN \(table) ON \(table).id = \(fts).rowid"), condition, fts)
    }
}
