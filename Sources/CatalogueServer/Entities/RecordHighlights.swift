#if Server
import CatalogueCore

/// What a search matched in one record: for each matched field, its text cut into segments
/// (``HighlightQuery/segments(of:)``), written as `{"name": [{"text": "Bog", "match": true}, …]}`
/// (``JSONWriter/highlights(_:)``).
///
/// ```swift
/// var highlights = RecordHighlights()
/// highlights.add("name", "Bogotá", for: HighlightQuery(SearchQuery(text: "bog")))
/// ```
struct RecordHighlights: Sendable, Equatable {
    /// The matched fields with their segments, in the order they were added.
    private(set) var fields: [(field: String, segments: [HighlightSegment])] = []

    /// The segments of `field`, if it matched.
    subscript(field: String) -> [HighlightSegment]? {
        fields.first { $0.field == field }?.segments
    }

    static func == (lhs: RecordHighlights, rhs: RecordHighlights) -> Bool {
        lhs.fields.map(\.field) == rhs.fields.map(\.field) && lhs.fields.map(\.segments) == rhs.fields.map(\.segments)
    }

    /// Adds `field` with `value` cut for `query`, when the text matched part of it. Returns
    /// whether it did.
    @discardableResult
    mutating func add(_ field: String, _ value: String?, for query: HighlightQuery) -> Bool {
        guard let value, let segments = query.segments(of: value) else { return false }
        fields.append((field, segments))
        return true
    }
}
#endif
