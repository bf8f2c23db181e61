/// One page of search results and the total number of matches.
///
/// ```swift
/// let results = try catalogue.search(CatalogueSearch.countries(matching: "sa"), limit: 5)
/// print(results.summary)  // "12 items found"
/// ```
public struct SearchResults<R: Record>: Sendable {
    /// The records of the page, in order.
    public let records: [R]
    /// How many records match in all (counted in SQL, without loading them).
    public let totalCount: Int

    public init(records: [R], totalCount: Int) {
        self.records = records
        self.totalCount = totalCount
    }

    /// "N items found", "1 item found" or "No items found".
    public var summary: String {
        switch totalCount {
        case 0: "No items found"
        case 1: "1 item found"
        default: "\(totalCount) items found"
        }
    }
}

extension Catalogue {
    /// Runs `request` for one page (`limit` nil: every record) and counts all its matches, in
    /// one consistent snapshot.
    public func search<R: Record>(_ request: FetchRequest<R>, limit: Int? = 50, offset: Int = 0) throws -> SearchResults<R> {
        var request = request
        request.fetchLimit = limit
        request.fetchOffset = offset
        return try read { db in
            let records = try db.fetch(request)
            // A page shorter than the limit, from the start, is the whole result: no count needed.
            if offset == 0, limit.map({ records.count < $0 }) ?? true {
                return SearchResults(records: records, totalCount: records.count)
            }
            return SearchResults(records: records, totalCount: try db.fetchCount(request))
        }
    }

    /// The records `request` describes, read with one statement (its own consistent
    /// snapshot), without an explicit transaction: the per-keystroke path.
    ///
    /// ```swift
    /// var request = CatalogueSearch.products(matching: "ip")
    /// request.fetchLimit = 50
    /// let page = try catalogue.fetch(request)
    /// ```
    @inlinable
    public func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        try database.inDatabase { try $0.fetch(request) }
    }

    /// How many records match `request` (limit and offset ignored), counted in SQL.
    @inlinable
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        try database.inDatabase { try $0.fetchCount(request) }
    }

    /// The distinct product types, in folded order (for scope bars and error messages).
    public func productTypes() throws -> [String] {
        try read { db in
            try db.fetchAll("SELECT min(type) FROM product GROUP BY type_key ORDER BY type_key") {
                try $0.decode(String.self, at: 0)
            }
        }
    }
}
