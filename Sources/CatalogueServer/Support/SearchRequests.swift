#if Server
import CatalogueCore

/// Turns a checked ``SearchQuery`` into the library's search request, checking its scope: the
/// descriptor's scopes first, and only when the scope is not one of them, the data's (product
/// types), which costs a query.
///
/// ```swift
/// let request = try await SearchRequests(catalogue: catalogue).request(Product.self, for: search)
/// ```
struct SearchRequests: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache

    /// The request `catalogue search` makes for `search`; a 400 listing the valid scopes when
    /// the scope is unknown.
    func request<R: ServedRecord>(_ type: R.Type, for search: SearchQuery) async throws -> FetchRequest<R> {
        var valid = R.entity.scopes
        if let scope = search.scope, !valid.contains(where: { Folding.fold($0.key) == Folding.fold(scope) }) {
            valid += try await dataScopes(R.self)
        }
        return try R.request(for: search, validScopes: valid)
    }

    /// The key of the scope `search` names, as the entity spells it (nil: the default scope); a
    /// 400 listing the valid scopes when it has none of that name.
    func scopeKey<R: ServedRecord>(_ type: R.Type, for search: SearchQuery) async throws -> String? {
        guard let given = search.scope else { return nil }
        let folded = Folding.fold(given)
        var valid = R.entity.scopes
        if let scope = valid.first(where: { Folding.fold($0.key) == folded }) { return scope.key }
        valid += try await dataScopes(R.self)
        if let scope = valid.first(where: { Folding.fold($0.key) == folded }) { return scope.key }
        let error = SearchScopeError(scope: SearchQuery.quoted(given), entity: R.entity.entity, validScopes: valid.map(\.key))
        throw APIError.badRequest(String(describing: error))
    }

    /// The scopes the data adds (product types), kept in the cache until the catalogue changes.
    func dataScopes<R: ServedRecord>(_ type: R.Type) async throws -> [SearchScope] {
        try await cache.value(for: AnyHashable(DataScopesKey<R>())) { try await R.dataScopes(in: catalogue) }
    }

    private struct DataScopesKey<R>: Hashable {}
}
#endif
