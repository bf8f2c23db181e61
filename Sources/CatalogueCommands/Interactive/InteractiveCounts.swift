import CatalogueKit

/// How far the interactive mode counts while searching: a keystroke never waits for every match
/// to be counted. A search lists its first ``cap`` matches and says "More than 10,000 items
/// found" beyond them; each scope of the scope bar is counted up to the cap and shows
/// "10,000+" beyond it. Browsing counts exactly (the sectioned lists need every row).
///
/// ```swift
/// InteractiveCounts.text(1_234, searching: true)   // "1,234"
/// InteractiveCounts.text(10_001, searching: true)  // "10,000+"
/// InteractiveCounts.text(10_001, searching: false) // "10,001" (browsing counts exactly)
/// ```
enum InteractiveCounts {
    /// The most matches a search lists and counts.
    static let cap = 10_000

    /// The count limit of a search.
    static var limit: CountLimit { .capped(at: cap) }

    /// A scope's count as the scope bar shows it: grouped, or, `searching`, "10,000+" above the cap.
    static func text(_ count: Int, searching: Bool) -> String {
        searching && count > cap ? FieldFormat.grouped(Int64(cap)) + "+" : FieldFormat.grouped(Int64(count))
    }
}
