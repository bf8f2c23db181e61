#if Server
import CatalogueCore

/// What the server needs to know about an entity beyond its ``EntityDescriptor``: which scopes
/// its scope bar shows, which fields a search highlights, and which field its sections follow.
/// ``Country`` and ``Product`` conform; every controller is written once, generic over it.
///
/// ```swift
/// let highlights = country.highlights(for: HighlightQuery(SearchQuery(text: "bog", scope: "capital")))
/// // ["capital": [[Bog], otá]]
/// ```
protocol ServedRecord: CatalogueRecord, Sendable {
    /// The scopes the catalogue's data adds to ``EntityDescriptor/scopes`` (a product type each),
    /// in scope-bar order.
    static func dataScopes(in catalogue: Catalogue) async throws -> [SearchScope]
    /// The fixed scopes the scope bar shows (countries: name and capital; `any` is searchable
    /// but not a scope-bar choice).
    static var scopeBarScopes: [SearchScope] { get }
    /// The field the sections of `search` follow, and the order of their rows.
    static func sectionField(for search: SearchQuery) -> String
    /// The record's fields that the search of `query` matched, each cut into segments.
    func highlights(for query: HighlightQuery) -> RecordHighlights
}

extension ServedRecord {
    /// The search request for `search`, with its scope checked against `validScopes`
    /// (compared ignoring case and diacritics, as the CLI does). Throws a 400 that lists them.
    static func request(for search: SearchQuery, validScopes: [SearchScope]) throws(APIError) -> FetchRequest<Self> {
        let scope = try scopeKey(search.scope, among: validScopes)
        do {
            return try searchRequest(matching: search.text, scope: scope, mode: search.mode)
        } catch {
            throw .badRequest(String(describing: error))
        }
    }

    /// The key of the scope `given` names among `validScopes` (compared ignoring case and
    /// diacritics), as the entity spells it; nil for nil (the default scope). Throws a 400 that
    /// lists the valid scopes.
    static func scopeKey(_ given: String?, among validScopes: [SearchScope]) throws(APIError) -> String? {
        guard let given else { return nil }
        let folded = Folding.fold(given)
        guard let match = validScopes.first(where: { Folding.fold($0.key) == folded }) else {
            let error = SearchScopeError(scope: SearchQuery.quoted(given), entity: entity.entity, validScopes: validScopes.map(\.key))
            throw .badRequest(String(describing: error))
        }
        return match.key
    }

    /// Every scope a search may name: the descriptor's, then the data's.
    static func validScopes(in catalogue: Catalogue) async throws -> [SearchScope] {
        entity.scopes + (try await dataScopes(in: catalogue))
    }

    /// The request that finds the record people call `key` (a country's code in any case, a
    /// product's id); nil when `key` cannot name one (a product id that is not a number).
    static func lookupRequest(_ key: String) -> FetchRequest<Self>? {
        var request: FetchRequest<Self>
        switch entity.lookup {
        case .code(let column, _, _):
            request = FetchRequest(predicate: .equals(column, key.uppercased()), sortDescriptors: [])
        case .id:
            guard let id = Int64(key) else { return nil }
            request = FetchRequest(predicate: .equals("id", id), sortDescriptors: [])
        }
        request.fetchLimit = 1
        return request
    }
}
#endif
