#if Server
import CatalogueCore
import Hummingbird

/// `GET /api/{entity}?q=&scope=&match=&limit=&offset=`: one page of a search, in the order
/// `catalogue search` prints it, with the total and each row's highlights.
struct SearchController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: search)
    }

    @Sendable func search(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = QueryString(request.uri.query)
        let search = try SearchQuery(query)
        let window = try PageWindow(query)
        let fetchRequest = try await SearchRequests(catalogue: catalogue, cache: cache).request(R.self, for: search)
        var pageRequest = fetchRequest
        pageRequest.fetchLimit = window.limit
        pageRequest.fetchOffset = window.offset
        let page = pageRequest
        let records: [R]
        let total: Int
        if let known = cache.cachedCount(fetchRequest) {
            (records, total) = (try await catalogue.fetch(page), known)
        } else {
            // As `catalogue.search`: one snapshot; a first page shorter than the limit is the
            // whole result and needs no count.
            let cache = self.cache
            (records, total) = try await catalogue.read { db in
                let records = try db.fetch(page)
                if window.offset == 0, records.count < window.limit { return (records, records.count) }
                return (records, try cache.count(fetchRequest, in: db))
            }
        }
        let highlighting = HighlightQuery(search)
        var json = JSONWriter(capacity: 512 + records.count * 512)
        json.object { json in
            json.key("total"); json.integer(total)
            json.key("items"); json.array { json in for record in records { json.record(record) } }
            json.key("highlights"); json.array { json in for record in records { json.highlights(record.highlights(for: highlighting)) } }
        }
        return json.response()
    }
}
#endif
