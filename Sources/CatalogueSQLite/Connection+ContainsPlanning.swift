import CatalogueCore
import SQLiteStore

extension Connection {
    /// SQLite's dialect for `request`, with each `CONTAINS[cd]` on a substring-indexed key
    /// planned for `work`. When two or more of the request's conditions are indexed, the rows
    /// are narrowed to the intersection of their indexes' ids (`intersectedCandidates(for:)`).
    /// Otherwise the trigram index finds the candidates when they number at most
    /// ``SQLiteTrigramIndex/candidateLimit(for:)``, counted through the index and stopping
    /// after that; otherwise the key index is scanned in order. Either way the rows and their
    /// order are the same. Texts under three characters, and requests without such a
    /// comparison, get the plain dialect without a lookup. `work` defaults to what the request
    /// reads: a page when it has a fetch limit, else every match.
    ///
    /// ```swift
    /// let request = CatalogueSearch.products(matching: "lamp 20", mode: .contains)
    /// let sql = try request.selectSQL(in: db.plannedDialect(for: request))
    /// // "… WHERE product.id IN (SELECT rowid FROM product_name_key_trigram WHERE … MATCH ?) AND instr(…) > 0 …"
    /// ```
    public func plannedDialect<R: Record>(
        for request: FetchRequest<R>, work: SQLiteTrigramIndex.Work? = nil
    ) throws -> SQLiteDialect {
        var dialect = SQLiteDialect()
        let schema = R.schema
        let work = work ?? (request.fetchLimit == nil ? .everyMatch : .page)
        guard !schema.substringIndexedColumns.isEmpty else { return dialect }
        if let candidates = try intersectedCandidates(for: request) {
            dialect.intersectedCandidates = candidates
            return dialect
        }
        for (keyColumn, needle) in request.predicate.keyContainsComparisons(in: schema) {
            guard let index = SQLiteTrigramIndex.index(forQualifiedKey: keyColumn, in: schema),
                  let pattern = SQLiteTrigramIndex.matchPattern(for: needle),
                  try hasTable(index.table)
            else { continue }
            if let limit = SQLiteTrigramIndex.candidateLimit(for: work) {
                let candidates: Int = try scalar(
                    "SELECT count(*) FROM (SELECT 1 FROM \(index.table) WHERE \(index.table) MATCH ? LIMIT ?)",
                    [pattern, limit + 1]) ?? 0
                guard candidates <= limit else { continue }
            }
            dialect.trigramLookups[SQLiteDialect.TrigramLookup(expression: keyColumn, needle: needle)] = index
        }
        return dialect
    }

    /// Whether the schema has a table or virtual table named `name` (remembered until the
    /// database changes).
    func hasTable(_ name: String) throws -> Bool {
        try remembered("table \(name)") {
            try scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]) as Int? != nil
        }
    }
}
