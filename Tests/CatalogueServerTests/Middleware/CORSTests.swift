#if Server
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// CORS: no headers at all unless an origin is configured; then that origin only.
@Suite("CORS")
struct CORSTests {
    static let preflight: HTTPFields = [
        .origin: "https://app.example.org", .accessControlRequestMethod: "POST",
        .accessControlRequestHeaders: "authorization, content-type",
    ]

    @Test("Off by default: no Access-Control headers, and a preflight is not answered")
    func off() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let answer = try await client.get("/api/countries?q=bo", headers: [.origin: "https://evil.example"])
            #expect(answer.status == .ok)
            #expect(answer.headers[.accessControlAllowOrigin] == nil)
            let preflight = try await client.execute(uri: "/api/products/import", method: .options, headers: Self.preflight)
            #expect(preflight.headers[.accessControlAllowOrigin] == nil)
            #expect(preflight.headers[.accessControlAllowMethods] == nil)
            #expect(preflight.status.code >= 400)
        }
    }

    @Test("With --cors-origin: that origin is allowed, for GET and for the import's preflight")
    func on() async throws {
        let fixture = try ServerFixture()
        let options = ServerFixture.options { $0.corsOrigin = "https://app.example.org" }
        try await fixture.test(options: options) { client in
            let answer = try await client.get("/api/countries?q=bo", headers: [.origin: "https://app.example.org"])
            #expect(answer.headers[.accessControlAllowOrigin] == "https://app.example.org")
            let preflight = try await client.execute(uri: "/api/products/import", method: .options, headers: Self.preflight)
            #expect(preflight.status.code < 300)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://app.example.org")
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(preflight.headers[.accessControlAllowHeaders]?.lowercased().contains("authorization") == true)
            let error = try await client.get("/api/countries?scope=x", headers: [.origin: "https://app.example.org"])
            #expect(error.status == .badRequest)
            #expect(error.headers[.accessControlAllowOrigin] == "https://app.example.org")
        }
    }
}
#endif
