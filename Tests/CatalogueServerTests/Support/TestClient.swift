#if Server
import Foundation
import Hummingbird

/// An HTTP/1.1 client of the live test server: one connection per request (`Connection: close`),
/// the whole response read until the server closes it, a chunked body decoded.
///
/// The tests' own client, on a plain socket (``RawHTTPConnection``), so that the test build
/// needs no HTTP client library (HummingbirdTesting's brings AsyncHTTPClient, SwiftNIO's TLS and
/// HTTP/2 and BoringSSL, three minutes of every build on two cores).
///
/// ```swift
/// try await fixture.test { client in
///     let response = try await client.get("/api/countries?q=bog&scope=capital")
///     #expect(response.status == .ok)
/// }
/// ```
struct TestClient: Sendable {
    /// The port the server listens on, at 127.0.0.1.
    let port: Int

    /// Sends one request and reads its whole response.
    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> TestResponse {
        let connection = try RawHTTPConnection(port: port)
        var head = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in headers {
            head += "\(field.name.rawName): \(field.value)\r\n"
        }
        let bodyBytes = body.map { Array($0.readableBytesView) }
        if let bodyBytes {
            head += "Content-Length: \(bodyBytes.count)\r\n"
        }
        head += "\r\n"
        connection.send(Array(head.utf8) + (bodyBytes ?? []))
        // A minute: under AddressSanitizer, in CI's loaded test run, a response can take seconds.
        let bytes = try await connection.readToEnd(timeout: .seconds(60), context: "the response to \(method.rawValue) \(uri)")
        return try TestResponse(parsing: bytes, context: "\(method.rawValue) \(uri)")
    }

    /// GET `uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// POST `body` to `uri` with the fixture's token (or `token`; nil: no Authorization header).
    func post(_ uri: String, _ body: String, token: String? = ServerFixture.token, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}

/// A response the ``TestClient`` read: its status, header fields and body.
struct TestResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer

    /// One header field (`HTTPField`, which Hummingbird does not export by name).
    typealias Field = HTTPFields.Element

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses a whole HTTP/1.1 response: the status line, the header fields, then the body
    /// (chunks joined when it was sent chunked).
    init(parsing bytes: [UInt8], context: String) throws {
        guard let headEnd = RawHTTPConnection.headEnd(bytes) else {
            throw Malformed(description: "\(context): no whole response head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else {
            throw Malformed(description: "\(context): status line \(lines[0].debugDescription)")
        }
        status = HTTPResponse.Status(code: code, reasonPhrase: statusParts.count > 2 ? String(statusParts[2]) : "")
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = Field.Name(String(line[..<colon])) else {
                throw Malformed(description: "\(context): header line \(line.debugDescription)")
            }
            headers.append(Field(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        self.headers = headers
        let rest = bytes[(headEnd + 4)...]
        if headers[.transferEncoding]?.lowercased() == "chunked" {
            let (data, complete) = RawHTTPConnection.chunkedData(rest)
            guard complete else {
                throw Malformed(description: "\(context): a chunked body cut short after \(data.count) bytes")
            }
            body = ByteBuffer(bytes: data)
        } else if let length = headers[.contentLength].flatMap({ Int($0) }) {
            guard rest.count >= length else {
                throw Malformed(description: "\(context): \(rest.count) of the body's \(length) bytes")
            }
            body = ByteBuffer(bytes: rest.prefix(length))
        } else {
            body = ByteBuffer(bytes: rest)
        }
    }

    /// The body decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
    }

    /// The body as a JSON object.
    var json: [String: Any] {
        get throws {
            guard let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
                throw Malformed(description: "the body is not a JSON object: \(text.prefix(200))")
            }
            return object
        }
    }

    /// The `error` of a JSON error body.
    var errorMessage: String? {
        (try? json)?["error"] as? String
    }

    /// The body as UTF-8 text.
    var text: String {
        String(decoding: body.readableBytesView, as: UTF8.self)
    }
}
#endif
