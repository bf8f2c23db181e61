#if Server
import CatalogueCore
import Hummingbird

/// The sections of a search, as a sectioned table shows them:
/// - `GET /api/{entity}/sections?q=&scope=&match=&selected=`: each section's title and count,
///   the index titles, and where the `selected` record sits (for a page restoring it);
/// - `GET /api/{entity}/sections/{title}?…&offset=&limit=`: a batch of one section's rows.
struct SectionsController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: sections)
            .get(":title", use: section)
    }

    struct Summary: Encodable {
        let title: String
        let count: Int
    }

    struct Position: Encodable {
        let title: String
        let offset: Int
    }

    /// The body of a sections answer; `selected` is present (maybe null) only when asked for.
    struct Sections: Encodable {
        let total: Int
        let sections: [Summary]
        let indexTitles: [String]
        let selected: Position??

        enum CodingKeys: String, CodingKey {
            case total, sections, indexTitles, selected
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(total, forKey: .total)
            try container.encode(sections, forKey: .sections)
            try container.encode(indexTitles, forKey: .indexTitles)
            if let selected {
                try container.encode(selected, forKey: .selected)
            }
        }
    }

    @Sendable func sections(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = QueryString(request.uri.query)
        let search = try SearchQuery(query)
        let selectedKey = try query.value("selected")
        let layout = SectionLayout(search: search, request: try await SearchRequests(catalogue: catalogue, cache: cache).request(R.self, for: search))
        let sectionRequests = layout.titles.compactMap { title in layout.request(forSection: title).map { (title, $0) } }
        let lookup = selectedKey.flatMap { R.lookupRequest($0) }
        let cache = self.cache
        // One snapshot: the counts and the selected record's position agree.
        let (summaries, position) = try await catalogue.read { db in
            let summaries = try sectionRequests.map { title, request in Summary(title: title, count: try cache.count(request, in: db)) }
                .filter { $0.count > 0 }
            guard let lookup, let record = try db.fetch(lookup).first, let id = record.id else {
                return (summaries, nil as Position?)
            }
            let title = layout.title(of: record)
            guard summaries.contains(where: { $0.title == title }), let sectionRequest = layout.request(forSection: title),
                  let offset = try db.fetchIDs(sectionRequest).firstIndex(of: id)
            else {
                return (summaries, nil as Position?)
            }
            return (summaries, Position(title: title, offset: offset))
        }
        return JSONBody.response(Sections(
            total: summaries.reduce(0) { $0 + $1.count }, sections: summaries, indexTitles: layout.indexTitles,
            selected: selectedKey == nil ? nil : .some(position)))
    }

    @Sendable func section(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = QueryString(request.uri.query)
        let search = try SearchQuery(query)
        let window = try PageWindow(query)
        let layout = SectionLayout(search: search, request: try await SearchRequests(catalogue: catalogue, cache: cache).request(R.self, for: search))
        let raw = context.parameters.get("title") ?? ""
        guard let title = QueryString.decodePathSegment(raw[...]).flatMap(layout.title(fromPathSegment:)),
              let sectionRequest = layout.request(forSection: title)
        else {
            throw APIError.notFound("no section '\(SearchQuery.quoted(raw))' in these results")
        }
        var pageRequest = sectionRequest
        pageRequest.fetchLimit = window.limit
        pageRequest.fetchOffset = window.offset
        let page = pageRequest
        let cache = self.cache
        let (count, records) = try await catalogue.read { db in (try cache.count(sectionRequest, in: db), try db.fetch(page)) }
        guard count > 0 else {
            throw APIError.notFound("no section '\(SearchQuery.quoted(raw))' in these results")
        }
        let highlighting = HighlightQuery(search)
        var json = JSONWriter(capacity: 512 + records.count * 512)
        json.object { json in
            json.key("title"); json.string(title)
            json.key("count"); json.integer(count)
            json.key("offset"); json.integer(window.offset)
            json.key("items"); json.array { json in for record in records { json.record(record) } }
            json.key("highlights"); json.array { json in for record in records { json.highlights(record.highlights(for: highlighting)) } }
        }
        return json.response()
    }
}
#endif
