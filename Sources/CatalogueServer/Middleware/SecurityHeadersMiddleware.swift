#if Server
import Hummingbird

/// Headers every answer carries: no content sniffing, and no framing of the page elsewhere.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var referrerPolicy: HTTPFields.Element.Name { HTTPFields.Element.Name("Referrer-Policy")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "no-referrer"
        return response
    }
}
#endif
