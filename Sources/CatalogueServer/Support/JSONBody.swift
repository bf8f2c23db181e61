#if Server
import Foundation
import Hummingbird

/// JSON answers: `application/json; charset=utf-8`, encoded once, with their length.
///
/// ```swift
/// return JSONBody.response(["scopes": scopes])
/// ```
enum JSONBody {
    /// `value` as a JSON response with `status`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            // Our bodies are plain structs of strings and numbers; a failure is a bug, reported
            // as one line like any other internal error.
            data = Data(#"{"error":"the server could not encode its answer"}"#.utf8)
            return Response(
                status: .internalServerError, headers: headers(length: data.count), body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return Response(status: status, headers: headers(length: data.count), body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `value` as one line of JSON text.
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let contentType = "application/json; charset=utf-8"

    private static func headers(length: Int) -> HTTPFields {
        [.contentType: contentType, .contentLength: String(length)]
    }

    /// Sorted keys are not needed; slashes are left alone (`"/api"`, not `"\/api"`).
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
#endif
