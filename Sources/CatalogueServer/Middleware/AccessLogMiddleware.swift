#if Server
import Hummingbird
import Logging

/// One structured line per request on the server's log (stderr): method, path, status,
/// duration and response size, as swift-log metadata.
///
/// ```
/// 2026-11-23T07:12:03+0000 info catalogue.serve : bytes=312 duration_ms=0.41 method=GET path=/api/countries?q=bog status=200 [CatalogueServer] request
/// ```
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, bytes: response.body.contentLength, since: start)
            return response
        } catch {
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, bytes: nil, since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, bytes: Int?, since start: ContinuousClock.Instant) {
        guard logger.logLevel <= .info else { return }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(request.uri.string)",
            "status": "\(status)",
            "duration_ms": "\((milliseconds * 100).rounded() / 100)",
        ]
        if let bytes { metadata["bytes"] = "\(bytes)" }
        logger.info("request", metadata: metadata)
    }
}
#endif
