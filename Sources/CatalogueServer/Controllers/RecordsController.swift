#if Server
import CatalogueCore
import Hummingbird

/// `GET /api/countries/{code}` (any case) and `GET /api/products/{id}`: one record, or a 404.
struct RecordsController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(":key", use: record)
    }

    @Sendable func record(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let raw = context.parameters.get("key") ?? ""
        guard let key = QueryString.decodePathSegment(raw[...]) else {
            throw APIError.notFound("no \(R.entity.singular) '\(SearchQuery.quoted(raw))'")
        }
        guard let lookup = R.lookupRequest(key), let record = try await catalogue.fetch(lookup).first else {
            throw APIError.notFound(Self.notFoundMessage(key))
        }
        var json = JSONWriter()
        json.record(record)
        return json.response()
    }

    /// "no country with code 'XX'", "no product with id '7'".
    static func notFoundMessage(_ key: String) -> String {
        let name = switch R.entity.lookup {
        case .code(let column, _, _): column
        case .id: "id"
        }
        return "no \(R.entity.singular) with \(name) '\(SearchQuery.quoted(key))'"
    }
}
#endif
