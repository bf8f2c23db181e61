#if Server
import CatalogueKit
import Foundation
import Logging
import Testing
@testable import CatalogueServer

/// ``ConnectionLimit`` and ``ServerOptions/idleTimeout``: a client that opens connections and
/// sends nothing, or half a request, cannot use up the server's file descriptors or hold a
/// connection for ever.
@Suite("Connection limit and idle timeout", .serialized)
struct ConnectionLimitTests {
    @Test("The limit is the requested one, lowered to the open-file limit less the catalogue's reserve")
    func effectiveMaximum() {
        #expect(ConnectionLimit.effectiveMaximum(requested: 4096, openFileLimit: nil) == 4096)
        #expect(ConnectionLimit.effectiveMaximum(requested: 4096, openFileLimit: 1024) == 1024 - ConnectionLimit.reservedDescriptors)
        #expect(ConnectionLimit.effectiveMaximum(requested: 10, openFileLimit: 1_048_576) == 10)
        #expect(ConnectionLimit.effectiveMaximum(requested: 4096, openFileLimit: 20) == 1)
    }

    @Test("It counts connections, stops accepting at the limit, and warns once a minute")
    func counting() {
        let logs = CapturedLogs()
        var limit = ConnectionLimit(maximum: 2, logger: Logger(label: "test") { _ in CapturingLogHandler(logs: logs) })
        #expect(limit.isAcceptingNewConnections())
        limit.connectionOpened()
        #expect(limit.isAcceptingNewConnections())
        #expect(logs.all.isEmpty)
        limit.connectionOpened()
        #expect(!limit.isAcceptingNewConnections())
        limit.connectionClosed()
        #expect(limit.isAcceptingNewConnections())
        limit.connectionOpened()
        #expect(!limit.isAcceptingNewConnections())
        // Reached twice within the minute: one warning.
        #expect(logs.all.map(\.message) == ["connection limit reached: 2 open; new connections wait until one closes"])
        #expect(logs.all.map(\.level) == [.warning])
    }

    /// Options for a live server with `maximumConnections` and an idle timeout of half a second.
    static func options(maximumConnections: Int = 4096) -> ServerOptions {
        ServerFixture.options { options in
            options.maximumConnections = maximumConnections
            options.idleTimeout = .milliseconds(500)
            options.keepAliveInterval = .seconds(600)
        }
    }

    @Test("Idle connections at the limit are closed after the idle timeout, and a waiting request is answered")
    func idleConnectionsAtTheLimit() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: Self.options(maximumConnections: 3)) { client in
            let idle = try (0..<3).map { _ in try RawHTTPConnection(port: client.port) }
            // A fourth waits to be accepted until an idle one is closed, then is answered.
            let answer = try await client.get("/api/countries?q=bog&scope=capital")
            #expect(answer.status == .ok)
            #expect(answer.text.contains("\"Colombia\""))
            for connection in idle {
                #expect(await connection.waitForClose(timeout: .seconds(30)))
            }
        }
        #expect(fixture.logs.all.contains {
            $0.level == .warning && $0.message == "connection limit reached: 3 open; new connections wait until one closes"
        })
    }

    @Test("A request whose head stops arriving is closed after the idle timeout, unanswered")
    func slowHead() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: Self.options()) { client in
            let connection = try RawHTTPConnection(port: client.port)
            connection.send("GET /api/countries?q=bog HTTP/1.1\r\nHost: localhost\r\n")
            let bytes = try await connection.readToEnd(timeout: .seconds(30), context: "the server closing")
            #expect(bytes.isEmpty)
        }
    }

    @Test("An import whose body stops arriving is closed after the idle timeout and writes nothing")
    func stalledImportBody() async throws {
        let fixture = try ServerFixture()
        let before = try await fixture.catalogue.fetchCount(FetchRequest<Product>())
        try await fixture.test(options: Self.options()) { client in
            let connection = try RawHTTPConnection(port: client.port)
            let part = "name,type\nStalled,bulk\n"
            connection.send(
                "POST /api/products/import HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ServerFixture.token)\r\n"
                    + "Content-Type: text/csv\r\nContent-Length: \(part.utf8.count + 100)\r\n\r\n" + part)
            #expect(await connection.waitForClose(timeout: .seconds(30)))
            // The server still answers.
            #expect(try await client.get("/api/products?q=stalled").status == .ok)
        }
        #expect(try await fixture.catalogue.fetchCount(FetchRequest<Product>()) == before)
        #expect(try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "stalled")).isEmpty)
    }

    @Test("A change stream is not idle: it outlives the idle timeout and still reports changes")
    func changeStreamOutlivesTheIdleTimeout() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: Self.options()) { client in
            let (stream, _) = try await ChangesControllerTests.open("products", port: client.port)
            // Three idle timeouts with nothing sent either way (keep-alive comments every 10 minutes).
            try await Task.sleep(for: .milliseconds(1_500))
            let answer = try await client.post("/api/products/import", "name,type\nAfter the wait,bulk\n")
            #expect(answer.status == .ok)
            let change = try #require(try await ChangesControllerTests.readChanges(stream).first)
            #expect(change["entity"] as? String == "products")
            #expect((change["inserted"] as? [Int64])?.count == 1)
        }
    }
}
#endif
