#if Server
import CatalogueCore
import Hummingbird

/// `GET /api/{entity}/suggestions?q=&scope=&match=`: for a text that found nothing, up to five
/// names close to it, for a "Did you mean" line (`catalogue search` prints the same on stderr):
/// a country's name, alias or capital, or a product's name, as the scope reads them
/// (`CatalogueSearch.suggestions(for:scope:in:limit:)`; a suggestion is a whole name, which any
/// mode finds); and the first other match mode that finds the text in the scope
/// (`MatchMode.firstFallback(for:counting:)`) with its count, for "Match words to find 1
/// country".
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
        /// The first of the match mode's fallbacks that finds the text in the scope; nil when
        /// none does.
        let foundWith: FoundWith?

        /// Encoded with `foundWith` as null when there is none, not left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(suggestions, forKey: .suggestions)
            try container.encode(foundWith, forKey: .foundWith)
        }

        private enum CodingKeys: String, CodingKey {
            case suggestions, foundWith
        }
    }

    /// Another match mode and how many records it finds.
    struct FoundWith: Encodable, Sendable {
        let match: MatchMode
        let count: Int
    }

    @Sendable func suggestions(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let search = try SearchQuery(QueryString(request.uri.query))
        let scope = try await SearchRequests(catalogue: catalogue, cache: cache).scopeKey(R.self, for: search)
        let text = search.text
        let catalogue = self.catalogue
        let names = try await cache.value(for: AnyHashable(Key(text: text, scope: scope))) {
            try await catalogue.read { db in try R.suggestions(for: text, scope: scope, in: db) }
        }
        let cache = self.cache
        let mode = search.mode
        let foundWith = text.isEmpty ? nil : try await catalogue.read { db -> FoundWith? in
            try mode.firstFallback(for: text) { other in
                let request: FetchRequest<R>
                do {
                    request = try R.searchRequest(matching: text, scope: scope, mode: other)
                } catch {
                    throw APIError.badRequest(String(describing: error))
                }
                return try cache.count(request, in: db)
            }.map { FoundWith(match: $0.mode, count: $0.count) }
        }
        return JSONBody.response(Suggestions(suggestions: names, foundWith: foundWith))
    }

    /// The cache key of a text's suggestions in a scope of `R`.
    private struct Key: Hashable {
        let text: String
        let scope: String?
    }
}
#endif
