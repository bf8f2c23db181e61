#if Server
import CatalogueCore
import Hummingbird

/// `GET /api/{entity}/scopes?q=&match=`: how many records the text finds in each scope of the
/// scope bar (countries: name, capital; products: all, then every type, 0 included).
struct ScopesController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: scopes)
    }

    struct ScopeCount: Encodable {
        let scope: String
        let title: String
        let count: Int
    }

    struct Scopes: Encodable {
        let scopes: [ScopeCount]
    }

    @Sendable func scopes(_ request: Request, context: BasicRequestContext) async throws -> Response {
        var search = try SearchQuery(QueryString(request.uri.query))
        search.scope = nil
        let bar = R.scopeBarScopes + (try await SearchRequests(catalogue: catalogue, cache: cache).dataScopes(R.self))
        let valid = R.entity.scopes + bar
        let requests = try bar.map { scope throws(APIError) in
            try R.request(for: SearchQuery(text: search.text, scope: scope.key, mode: search.mode), validScopes: valid)
        }
        let cache = self.cache
        let counts = try await catalogue.read { db in try requests.map { try cache.count($0, in: db) } }
        return JSONBody.response(Scopes(scopes: zip(bar, counts).map { ScopeCount(scope: $0.key, title: $0.title, count: $1) }))
    }
}
#endif
