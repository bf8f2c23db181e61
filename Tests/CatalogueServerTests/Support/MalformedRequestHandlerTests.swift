#if Server
import Foundation
import Testing
@testable import CatalogueServer

/// A request SwiftNIO's HTTP parser refuses gets a 400 whose JSON says why, and the connection
/// closes; the server goes on (`MalformedRequestHandler`).
@Suite("Requests the HTTP parser refuses")
struct MalformedRequestHandlerTests {
    @Test("A request line and headers over 80 KiB, and bytes that are not HTTP: a 400 saying why, then the connection closes", arguments: [
        ("GET /api/countries?q=" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
         "the request line and headers are larger than 80 KiB (a search's text is at most 256 characters)"),
        ("GET /api/countries HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + String(repeating: "b", count: 90_000) + "\r\n\r\n",
         "the request line and headers are larger than 80 KiB (a search's text is at most 256 characters)"),
        ("HELLO THERE\r\n\r\n", "the request is not valid HTTP/1.1"),
        ("GET /api/countries HTTP/1.1\r\nHost: localhost\r\nContent-Length: many\r\n\r\n", "the request is not valid HTTP/1.1"),
    ])
    func refused(request: String, reason: String) async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let connection = try RawHTTPConnection(port: client.port)
            _ = connection.send(request)
            let response = try await connection.readResponse()
            #expect(response.status == 400, "\(response.head)")
            #expect(response.head.lowercased().contains("content-type: application/json; charset=utf-8"), "\(response.head)")
            #expect(response.head.lowercased().contains("connection: close"), "\(response.head)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: String])
            #expect(body["error"]?.hasPrefix(reason) == true, "\(response.body)")
            #expect(await connection.waitForClose(timeout: .seconds(30)))
            // The server goes on.
            #expect(try await client.get("/api/countries?q=bog&scope=capital").status == .ok)
        }
    }

    @Test("An ordinary 400 of the API passes untouched")
    func ordinaryBadRequest() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let answer = try await client.get("/api/countries?match=sideways")
            #expect(answer.status == .badRequest)
            #expect(answer.text.contains("unknown match mode"), "\(answer.text)")
        }
    }
}
#endif
