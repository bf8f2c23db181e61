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

    /// "N items found" (grouped: "1,000 items found"), "1 item found" or "No items found".
    public var summary: String {
        ResultCountText.found(totalCount)
    }
}

/// How counts of results read to people, the same in every layer: digits grouped by
/// thousands, independent of the locale.
///
/// ```swift
/// ResultCountText.found(300_074)        // "300,074 items found"
/// ResultCountText.shown(50, of: 250)    // "50 of 250 shown"
/// ```
public enum ResultCountText {
    /// "N items found", "1 item found" or "No items found".
    public static func found(_ count: Int) -> String {
        switch count {
        case 0: "No items found"
        case 1: "1 item found"
        default: "\(FieldFormat.grouped(Int64(count))) items found"
        }
    }

    /// "50 of 250 shown": a page cut from a longer list.
    public static func shown(_ shown: Int, of total: Int) -> String {
        "\(FieldFormat.grouped(Int64(shown))) of \(FieldFormat.grouped(Int64(total))) shown"
    }
}
