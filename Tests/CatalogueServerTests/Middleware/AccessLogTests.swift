#if Server
import Foundation
import Hummingbird
import Logging
import Testing
@testable import CatalogueServer

/// One structured log line per request: method, path, status, duration.
@Suite("Access log")
struct AccessLogTests {
    @Test("Each request is logged with its method, path, status and duration; the token never is")
    func lines() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            _ = try await client.get("/api/countries?q=bog&scope=capital")
            _ = try await client.get("/api/countries?scope=x")
            _ = try await client.get("/nope")
            _ = try await client.post("/api/products/import", "name,type\nLogged,bulk\n")
        }
        let requests = fixture.logs.all.filter { $0.message == "request" }
        #expect(requests.map { "\($0.metadata["method"]!) \($0.metadata["path"]!) \($0.metadata["status"]!)" } == [
            "GET /api/countries?q=bog&scope=capital 200", "GET /api/countries?scope=x 400", "GET /nope 404",
            "POST /api/products/import 200",
        ])
        for entry in requests {
            #expect(entry.level == .info)
            #expect(Double(entry.metadata["duration_ms"]?.description ?? "") != nil)
        }
        #expect(!fixture.logs.all.contains { "\($0.message) \($0.metadata)".contains(ServerFixture.token) })
        #expect(fixture.logs.all.contains { $0.message == "import" && $0.metadata["added"] == "1" })
    }
}
#endif
