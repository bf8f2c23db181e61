#if Server
import CatalogueKit
import Foundation
import Testing
@testable import CatalogueServer

/// The application ``CatalogueServer/makeApplication(catalogue:options:logger:onServerRunning:)``
/// builds lets its catalogue go once it has stopped: no route, controller, middleware, change
/// stream or the broadcaster keeps it in a retain cycle. (CI's AddressSanitizer stage, whose
/// LeakSanitizer would report such a cycle at exit, builds without the server.)
@Suite("Server lifetime")
struct CatalogueServerLifetimeTests {
    @Test("Once the server has stopped, nothing of it keeps the catalogue: every kind of endpoint used, a change stream open at shutdown")
    func releasesTheCatalogue() async throws {
        weak var released: Catalogue?
        do {
            let fixture = try ServerFixture()
            released = fixture.catalogue
            try await fixture.test { client in
                let (stream, head) = try await ChangesControllerTests.open("products", port: client.port)
                #expect(head.hasPrefix("HTTP/1.1 200"))
                let answers = [
                    try await client.get("/"),
                    try await client.get("/assets/app.js"),
                    try await client.get("/api/countries?q=col"),
                    try await client.get("/api/products?q=ipad&match=words"),
                    try await client.get("/api/countries/sections"),
                    try await client.get("/api/countries/sections/C"),
                    try await client.get("/api/products/scopes"),
                    try await client.get("/api/countries/suggestions?q=columbia"),
                    try await client.get("/api/countries/CO"),
                    try await client.get("/api/countries/export"),
                    try await client.post("/api/products/import", "name,type\nLifetime lamp,lamps\n"),
                ]
                #expect(answers.map(\.status.code) == Array(repeating: 200, count: answers.count))
                let refused = try await client.get("/api/countries?q=col&match=nearly")
                #expect(refused.status == .badRequest)
                _ = try await ChangesControllerTests.readChanges(stream)
            }
        }
        // The server's tasks end as it shuts down; give the last of them a moment to return.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(released == nil, "the stopped server still holds the catalogue")
    }
}
#endif
