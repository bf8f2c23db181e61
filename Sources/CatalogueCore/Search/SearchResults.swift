/// One page of search results and the total number of matches.
///
/// ```swift
/// let results = try catalogue.search(CatalogueSearch.countries(matching: "sa"), limit: 5)
/// print(results.summary)  // "12 items found"
/// ```
public struct SearchResults<R: Record>: Sendable {
    /// The records of the page, in order.
    public let records: [R]
    /// How many records match in all (counted in SQL, without loading them); when
    /// ``isCountExact`` is false, the cap of a ``CountLimit/capped(at:)`` count, which more
    /// records than that match.
    public let totalCount: Int
    /// False when the count stopped at its cap: more than ``totalCount`` records match.
    public let isCountExact: Bool

    /// A page and its count; `isCountExact` false says more than `totalCount` records match.
    ///
    /// ```swift
    /// let results = SearchResults(records: page, totalCount: 1_000, isCountExact: false)
    /// results.summary   // "More than 1,000 items found"
    /// ```
    public init(records: [R], totalCount: Int, isCountExact: Bool = true) {
        self.records = records
        self.totalCount = totalCount
        self.isCountExact = isCountExact
    }

    /// A page read with `limit` (nil: none) at `offset`, with its count as `count` says: none
    /// needed when a page from the start is shorter than the limit; else `countMatches(nil)`
    /// (every match) or, for a cap no smaller than what the page shows, `countMatches(cap + 1)`
    /// (a count that stops there), above the cap "more than the cap". The one rule of
    /// ``CatalogueReading/search(_:limit:offset:count:)`` and ``PreparedSearch/search(_:)``.
    static func counting(
        _ records: [R], limit: Int?, offset: Int, count: CountLimit,
        _ countMatches: (_ stoppingAfter: Int?) throws -> Int
    ) rethrows -> SearchResults<R> {
        if offset == 0, limit.map({ records.count < $0 }) ?? true {
            return SearchResults(records: records, totalCount: records.count)
        }
        // A cap below what the page shows (offset + records) would say less than is shown.
        guard let cap = count.cap, cap < Int.max, cap - records.count >= offset else {
            return SearchResults(records: records, totalCount: try countMatches(nil))
        }
        let counted = try countMatches(cap + 1)
        return counted > cap
            ? SearchResults(records: records, totalCount: cap, isCountExact: false)
            : SearchResults(records: records, totalCount: counted)
    }

    /// "N items found" (grouped: "1,000 items found"), "1 item found", "No items found", or
    /// "More than 1,000 items found" when the count stopped at its cap.
    public var summary: String {
        isCountExact ? ResultCountText.found(totalCount) : ResultCountText.foundMoreThan(totalCount)
    }

    /// "50 of 250 shown" (or "50 of more than 1,000 shown"): the page's share of all matches.
    public var shownSummary: String {
        isCountExact
            ? ResultCountText.shown(records.count, of: totalCount)
            : ResultCountText.shown(records.count, ofMoreThan: totalCount)
    }
}

/// How counts of results read to people, the same in every layer: digits grouped by
/// thousands, independent of the locale.
///
/// ```swift
/// ResultCountText.found(300_074)        // "300,074 items found"
/// ResultCountText.foundMoreThan(1_000)  // "More than 1,000 items found"
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

    /// "More than 1,000 items found": a count that stopped at its cap.
    public static func foundMoreThan(_ cap: Int) -> String {
        "More than \(FieldFormat.grouped(Int64(cap))) \(cap == 1 ? "item" : "items") found"
    }

    /// "50 of 250 shown": a page cut from a longer list.
    public static func shown(_ shown: Int, of total: Int) -> String {
        "\(FieldFormat.grouped(Int64(shown))) of \(FieldFormat.grouped(Int64(total))) shown"
    }

    /// "50 of more than 1,000 shown": a page cut from a list whose count stopped at its cap.
    public static func shown(_ shown: Int, ofMoreThan cap: Int) -> String {
        "\(FieldFormat.grouped(Int64(shown))) of more than \(FieldFormat.grouped(Int64(cap))) shown"
    }
}
