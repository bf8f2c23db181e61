extension CatalogueReading {
    /// The records of a full-text request with their `column` highlighted: every word that
    /// starts with a word of the request's ``FetchPredicate/fullText(_:)`` predicate wrapped in
    /// `open` and `close`.
    ///
    /// ```swift
    /// let request = CatalogueSearch.countries(matching: "united ki", mode: .words)
    /// let hits = try catalogue.read { db in try db.fetchHighlighted(request, column: "name") }
    /// hits.first?.highlighted  // "[United] [Kingdom]"
    /// ```
    ///
    /// Throws ``FetchRequestError/unknownColumn(_:table:known:)`` for a column that is not
    /// full-text indexed, and ``FetchRequestError/relevanceWithoutFullText`` when the request
    /// has no full-text predicate at its top level.
    public func fetchHighlighted<R: Record>(
        _ request: FetchRequest<R>, column: String, open: String = "[", close: String = "]"
    ) throws -> [(record: R, highlighted: String)] {
        let schema = R.schema
        guard schema.fullTextTable != nil, schema.fullTextColumns.contains(column),
              let index = schema.columns.firstIndex(of: column)
        else {
            throw FetchRequestError.unknownColumn(
                column, table: schema.fullTextTable ?? schema.table, known: schema.fullTextColumns)
        }
        var conjuncts: [FetchPredicate]
        if case .and(let predicates) = request.predicate { conjuncts = predicates } else { conjuncts = [request.predicate] }
        let pattern = conjuncts.lazy.compactMap { predicate -> FullTextPattern? in
            if case .fullText(let pattern) = predicate { return pattern }
            return nil
        }.first
        guard let pattern else { throw FetchRequestError.relevanceWithoutFullText }
        return try fetch(request).map { record in
            let text: String
            if case .text(let value) = record.databaseValues[index] { text = value } else { text = "" }
            let segments = SearchHighlighter.words(pattern.words, in: text)
            return (record, SearchHighlighter.marked(segments, open: open, close: close))
        }
    }
}
