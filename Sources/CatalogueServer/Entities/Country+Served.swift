#if Server
import CatalogueCore

extension Country: ServedRecord {
    static func dataScopes(in catalogue: Catalogue) async throws -> [SearchScope] {
        []
    }

    static var scopeBarScopes: [SearchScope] {
        entity.scopes.filter { $0.key != CountryScope.any.rawValue }
    }

    /// The capital in scope `capital`, else the name.
    static func sectionField(for search: SearchQuery) -> String {
        scope(search.scope) == .capital ? "capital" : "name"
    }

    /// The name (or, when only an alias matched, that alias) in scopes `name` and `any`; the
    /// capital in scopes `capital` and `any`; name and capital in `terms` mode, which reads both
    /// whatever the scope.
    func highlights(for query: HighlightQuery) -> RecordHighlights {
        var highlights = RecordHighlights()
        guard !query.isEmpty else { return highlights }
        let scope = Self.scope(query.scope)
        let readsName = query.mode == .terms || scope != .capital
        let readsCapital = query.mode == .terms || scope != .name
        if readsName, !highlights.add("name", name, for: query), query.mode != .terms {
            for alias in aliases where highlights.add("alias", alias, for: query) {
                break
            }
        }
        if readsCapital {
            highlights.add("capital", capital, for: query)
        }
        return highlights
    }

    private static func scope(_ key: String?) -> CountryScope {
        key.flatMap { CountryScope(rawValue: $0.lowercased()) } ?? .name
    }
}
#endif
