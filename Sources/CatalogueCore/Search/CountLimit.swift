/// How far a search counts its matches for "N items found".
///
/// Counting every match of a short text at a million rows scans the whole key index (a contains
/// search) or most of the full-text index (a one-letter words search): tens of milliseconds,
/// longer than the page itself. Search engines stop counting at a cap and say "more than 1,000
/// items"; ``capped(at:)`` does the same (the count statement stops at the first `cap + 1`
/// matches), and ``exact`` counts them all.
///
/// ```swift
/// let results = try catalogue.search(CatalogueSearch.products(matching: "a"), limit: 50, count: .standard)
/// print(results.summary)   // "More than 1,000 items found" (at 1M products)
/// ```
public enum CountLimit: Sendable, Hashable {
    /// Count every match.
    case exact
    /// Count at most `cap` matches; above that, the result says "more than `cap`".
    case capped(at: Int)

    /// What the CLI counts by default: at most 1,000 matches.
    public static let standard = CountLimit.capped(at: 1_000)

    /// The cap, or nil for ``exact``. A negative cap counts as 0.
    public var cap: Int? {
        if case .capped(let cap) = self { max(0, cap) } else { nil }
    }
}
