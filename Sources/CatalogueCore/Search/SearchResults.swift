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
