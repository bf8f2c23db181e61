extension CatalogueReading {
    /// How many records `request` matches for each value of `column` (limit, offset and order
    /// ignored), counted without loading them: one statement, whatever the number of values.
    /// Values are keyed as stored in `column` (NULL left out). `column` names a column a predicate
    /// may name (``RecordSchema/qualifiedColumns``: `id`, a stored column or a key column);
    /// anything else throws ``FetchRequestError/unknownColumn(_:table:known:)`` and reads nothing.
    ///
    /// ```swift
    /// try db.fetchCounts(CatalogueSearch.products(matching: "ip"), groupedBy: "type_key")
    /// // ["device": 3]
    /// ```
    public func fetchCounts<R: Record>(_ request: FetchRequest<R>, groupedBy column: String) throws -> [String: Int] {
        var unordered = try resolvingTypos(in: request)
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        unordered.fetchOffset = 0
        let matches = try unordered.select("\(try R.schema.qualifiedColumn(column)) AS grouped_value", in: dialect)
        var sql = SQLFragment("SELECT grouped_value, count(*) FROM (")
        sql += matches
        sql += SQLFragment(") AS matches GROUP BY grouped_value")
        var counts: [String: Int] = [:]
        try forEachRow(sql) { row in
            if let value = try row.decodeOptionalText(at: 0) {
                counts[value] = Int(try row.decodeInteger(at: 1))
            }
        }
        return counts
    }
}

extension Catalogue {
    /// ``CatalogueReading/fetchCounts(_:groupedBy:)`` in one statement of its own.
    public func fetchCounts<R: Record>(_ request: FetchRequest<R>, groupedBy column: String) throws -> [String: Int] {
        try engine.reading { try $0.fetchCounts(request, groupedBy: column) }
    }
}
