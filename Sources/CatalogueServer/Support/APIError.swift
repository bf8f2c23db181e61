#if Server
import Foundation
import Hummingbird

/// An answer of the API that is not a success: a status and one line for people, sent as
/// `{"error": "…"}`.
///
/// ```swift
/// throw APIError(.badRequest, "unknown match mode 'x'; valid modes: prefix, contains, words, terms, fuzzy")
/// ```
public struct APIError: Error, Sendable, Hashable, HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The message: one line, no stack trace, no SQL.
    public let message: String
    /// Extra headers (`WWW-Authenticate` on a 401).
    public let headers: HTTPFields

    /// An error answer with `status` and `message` (line breaks become spaces), and extra
    /// `headers`.
    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(ErrorBody(error: message), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    /// 400: the request is wrong.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    /// 404: no such thing.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
}

/// The body of an error answer.
struct ErrorBody: Encodable {
    let error: String
}
#endif
