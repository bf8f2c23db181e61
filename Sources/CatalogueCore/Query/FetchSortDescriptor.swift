/// One key of a fetch request's order.
///
/// ```swift
/// let order: [FetchSortDescriptor] = [
///     .init("name", options: [.caseInsensitive, .diacriticInsensitive]),  // folded name
///     .init("name"),                                                      // then exact name
///     .init("id"),
/// ]
/// ```
public struct FetchSortDescriptor: Sendable, Hashable {
    /// The column, or nil for full-text relevance (best first).
    public let column: String?
    /// Ascending (A→Z) or descending.
    public let ascending: Bool
    /// Sort by the folded value: `[cd]` reads the stored key column where there is one.
    public let options: ComparisonOptions

    /// Sorts by `column`.
    public init(_ column: String, ascending: Bool = true, options: ComparisonOptions = []) {
        self.column = column
        self.ascending = ascending
        self.options = options
    }

    private init(relevance: Void) {
        self.column = nil
        self.ascending = true
        self.options = []
    }

    /// Full-text relevance, best match first. Needs a ``FetchPredicate/fullText(_:)`` at the
    /// top level of the request's predicate. Followed by a folded key's order (``byName``,
    /// ``by(_:)``), it ranks in the tiers of ``RelevanceTiers``: whole words at the start of the
    /// key, then keys starting with the text, then the other matches, each tier in that order.
    /// Alone, it sorts by the engine's score (FTS5's bm25 on SQLite, `ts_rank` on PostgreSQL).
    public static let relevance = FetchSortDescriptor(relevance: ())

    /// The catalogue's display order for a record with a `name`: folded name, name, id.
    public static let byName: [FetchSortDescriptor] = by("name")

    /// The catalogue's display order by `column`: its folded value (its key column's order, so
    /// an index serves it), then the value as stored, then id.
    ///
    /// ```swift
    /// FetchSortDescriptor.by("capital")  // folded capital, capital, id
    /// ```
    public static func by(_ column: String) -> [FetchSortDescriptor] {
        [
            FetchSortDescriptor(column, options: .caseAndDiacriticInsensitive),
            FetchSortDescriptor(column),
            FetchSortDescriptor("id"),
        ]
    }
}

extension Array where Element == FetchSortDescriptor {
    /// The catalogue's display order for a record with a `name`: folded name, name, id.
    ///
    /// ```swift
    /// let request = FetchRequest<Product>(sortDescriptors: .byName)
    /// ```
    public static var byName: [FetchSortDescriptor] {
        FetchSortDescriptor.byName
    }
}
