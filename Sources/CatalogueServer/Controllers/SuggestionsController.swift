#if Server
import CatalogueCore
import Hummingbird

/// `GET /api/{entity}/suggestions?q=&scope=`: up to five names close to a text that found
/// nothing, for a "Did you mean" line (`catalogue search` prints the same on stderr): a
/// country's name, alias or capital, or a product's name, as the scope reads them
/// (`CatalogueSearch.suggestions(for:scope:in:limit:)`). The match mode does not
/// matter: a suggestion is a whole name, which any mode finds.
///
/// Kept in the result cache until the catalogue changes: the page asks again each time a
/// search it shows finds nothing.
struct SuggestionsController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: suggestions)
    }

    /// The body of the answer.
    struct Suggestions: Encodable {
        let suggestions: [String]
    }

    @Sendable func suggestions(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let search = try SearchQuery(QueryString(request.uri.query))
        let scope = try await SearchRequests(catalogue: catalogue, cache: cache).scopeKey(R.self, for: search)
        let text = search.text
        let catalogue = self.catalogue
        let names = try await cache.value(for: AnyHashable(Key(text: text, scope: scope))) {
            try await catalogue.read { db in try R.suggestions(for: text, scope: scope, in: db) }
        }
        return JSONBody.response(Suggestions(suggestions: names))
    }

    /// The cache key of a text's suggestions in a scope of `R`.
    private struct Key: Hashable {
        let text: String
        let scope: String?
    }
}
#endif
