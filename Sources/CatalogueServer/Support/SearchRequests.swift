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

    /// The request `catalogue search` makes for `search`; a 400 listing the valid scopes when
    /// the scope is unknown.
    func request<R: ServedRecord>(_ type: R.Type, for search: SearchQuery) async throws -> FetchRequest<R> {
        var valid = R.entity.scopes
        if let scope = search.scope, !valid.contains(where: { Folding.fold($0.key) == Folding.fold(scope) }) {
            valid += try await R.dataScopes(in: catalogue)
        }
        return try R.request(for: search, validScopes: valid)
    }
}
