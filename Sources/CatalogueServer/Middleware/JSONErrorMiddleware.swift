#if Server
import CatalogueCore
import Hummingbird
import Logging

/// Every failure becomes `{"error": "…"}` with its status: the API's own errors as they are,
/// Hummingbird's (no route, body too large) with a message of ours, a database out of reach
/// (``DatabaseAvailabilityError``: a PostgreSQL server that is down or restarting) and a
/// cancelled request (its read stopped with it) a 503 with `Retry-After`, anything else a 500;
/// neither names the database, SQL or a stack (the detail goes to the log).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            return try Self.apiError(for: error, path: request.uri.path).response(from: request, context: context)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return try APIError(.contentTooLarge, "the body is larger than the server accepts").response(from: request, context: context)
        } catch let error as any HTTPResponseError where error.status.code < 500 {
            return try APIError(error.status, error.status.reasonPhrase.lowercased()).response(from: request, context: context)
        } catch is CancellationError {
            // The request's task was cancelled (the server stopping), and with it the read it
            // waited for (an async read stops when its task is cancelled): nothing failed.
            logger.debug("request cancelled", metadata: ["path": "\(request.uri.path)"])
            return try Self.requestCancelled.response(from: request, context: context)
        } catch let error as any DatabaseAvailabilityError where error.isDatabaseUnavailable {
            logger.error("database unavailable", metadata: ["path": "\(request.uri.path)", "error": "\(String(describing: error))"])
            return try Self.databaseUnavailable.response(from: request, context: context)
        } catch {
            logger.error("internal error", metadata: ["path": "\(request.uri.path)", "error": "\(String(describing: error))"])
            return try APIError(.internalServerError, "the server could not answer: the catalogue could not be read or written")
                .response(from: request, context: context)
        }
    }

    /// The answer while the catalogue's database is out of reach.
    static var databaseUnavailable: APIError {
        APIError(.serviceUnavailable, "the catalogue's database is not answering; try again shortly", headers: [.retryAfter: "5"])
    }

    /// The answer to a request whose task was cancelled before it could answer.
    static var requestCancelled: APIError {
        APIError(.serviceUnavailable, "the request was cancelled before it could be answered; try again", headers: [.retryAfter: "1"])
    }

    /// Hummingbird's errors, in the API's words.
    static func apiError(for error: HTTPError, path: String) -> APIError {
        switch error.status {
        case .notFound:
            APIError(.notFound, "no such resource: \(SearchQuery.quoted(path))")
        case .methodNotAllowed:
            APIError(.methodNotAllowed, "method not allowed on \(SearchQuery.quoted(path))", headers: error.headers)
        case .contentTooLarge:
            APIError(.contentTooLarge, "the body is larger than the server accepts")
        default:
            APIError(error.status, error.body ?? error.status.reasonPhrase.lowercased(), headers: error.headers)
        }
    }
}
#endif
