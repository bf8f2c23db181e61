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
        try R.request(for: search, validScopes: try await validScopes(R.self, naming: search.scope))
    }

    /// The key of the scope `search` names, as the entity spells it (nil: the default scope); a
    /// 400 listing the valid scopes when it has none of that name.
    func scopeKey<R: ServedRecord>(_ type: R.Type, for search: SearchQuery) async throws -> String? {
        try R.scopeKey(search.scope, among: try await validScopes(R.self, naming: search.scope))
    }

    /// The scopes to look `scope` up in: the descriptor's, and the data's only when `scope` is
    /// not one of those.
    private func validScopes<R: ServedRecord>(_ type: R.Type, naming scope: String?) async throws -> [SearchScope] {
        let fixed = R.entity.scopes
        guard let scope, !fixed.contains(where: { Folding.fold($0.key) == Folding.fold(scope) }) else { return fixed }
        return fixed + (try await dataScopes(R.self))
    }

    /// The scopes the data adds (product types), kept in the cache until the catalogue changes.
    func dataScopes<R: ServedRecord>(_ type: R.Type) async throws -> [SearchScope] {
        try await cache.value(for: AnyHashable(DataScopesKey<R>())) { try await R.dataScopes(in: catalogue) }
    }

    private struct DataScopesKey<R>: Hashable {}
}
#endif
