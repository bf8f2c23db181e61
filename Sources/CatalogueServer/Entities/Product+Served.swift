#if Server
import CatalogueCore

extension Product: ServedRecord {
    /// One scope per product type (types compared after folding, each spelled as one of its
    /// products stores it), in folded order.
    static func dataScopes(in catalogue: Catalogue) async throws -> [SearchScope] {
        try await catalogue.productTypes().map { SearchScope(key: $0, title: $0) }
    }

    static var scopeBarScopes: [SearchScope] {
        entity.scopes
    }

    static func sectionField(for search: SearchQuery) -> String {
        "name"
    }

    /// The name, when the text matched it (a `terms` search may match only the year or price).
    func highlights(for query: HighlightQuery) -> RecordHighlights {
        var highlights = RecordHighlights()
        highlights.add("name", name, for: query)
        return highlights
    }
}
#endif
