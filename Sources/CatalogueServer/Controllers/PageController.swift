#if Server
import Hummingbird

/// The search page: `GET /` is `index.html`, `GET /assets/{name}` the other files of
/// `Sources/CatalogueServer/Page`, all embedded in the binary at build time. Only names of that
/// set are served (a dictionary lookup: no file system access, so no path escapes it); anything
/// else is a 404.
struct PageController: Sendable {
    let assets: PageAssets

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get("/", use: page)
            .get("/assets/:name", use: asset)
    }

    @Sendable func page(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let index = assets.page else {
            throw APIError.notFound("the page is not in this build")
        }
        return index.response(headers: [.contentSecurityPolicy: PageAssets.contentSecurityPolicy])
    }

    @Sendable func asset(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        // The exact path only: the router would also take `/assets/app.js/`.
        guard request.uri.path == "/assets/" + name, let asset = assets.asset(named: name) else {
            throw APIError.notFound("no asset '\(SearchQuery.quoted(name))'")
        }
        return asset.response(headers: [:])
    }
}
#endif
