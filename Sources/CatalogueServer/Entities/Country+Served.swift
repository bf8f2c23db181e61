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
        scope(of: search) == .capital ? "capital" : "name"
    }

    /// The name (or, when only an alias matched, that alias) in scopes `name` and `any`; the
    /// capital in scopes `capital` and `any`; name and capital in `terms` mode, which reads both
    /// whatever the scope.
    func highlights(for search: SearchQuery) -> RecordHighlights {
        var highlights = RecordHighlights()
        let text = search.text
        guard !CatalogueSearch.normalizedText(text).isEmpty else { return highlights }
        let scope = Self.scope(of: search)
        let readsName = search.mode == .terms || scope != .capital
        let readsCapital = search.mode == .terms || scope != .name
        if readsName, !highlights.add("name", name, matching: text, mode: search.mode), search.mode != .terms {
            for alias in aliases where highlights.add("alias", alias, matching: text, mode: search.mode) {
                break
            }
        }
        if readsCapital {
            highlights.add("capital", capital, matching: text, mode: search.mode)
        }
        return highlights
    }

    private static func scope(of search: SearchQuery) -> CountryScope {
        search.scope.flatMap { CountryScope(rawValue: $0.lowercased()) } ?? .name
    }
}
