import CatalogueCore
import Hummingbird

/// `GET /api/{entity}?q=&scope=&match=&limit=&offset=`: one page of a search, in the order
/// `catalogue search` prints it, with the total and each row's highlights.
struct SearchController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: search)
    }

    /// The body of a search answer.
    struct Page: Encodable {
        let total: Int
        let items: [R]
        let highlights: [RecordHighlights]
    }

    @Sendable func search(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = QueryString(request.uri.query)
        let search = try SearchQuery(query)
        let window = try PageWindow(query)
        let fetchRequest = try await SearchRequests(catalogue: catalogue).request(R.self, for: search)
        let results = try await catalogue.search(fetchRequest, limit: window.limit, offset: window.offset)
        return JSONBody.response(Page(
            total: results.totalCount, items: results.records,
            highlights: results.records.map { $0.highlights(for: search) }))
    }
}
