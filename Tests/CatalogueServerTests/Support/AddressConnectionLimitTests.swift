#if Server
import CatalogueKit
import Logging
import NIOCore
import Testing
@testable import CatalogueServer

/// ``AddressConnectionLimit``: one client address cannot hold more than
/// ``ServerOptions/maximumConnectionsPerAddress`` connections, so it cannot take every slot of
/// the server's connection limit from everyone else.
@Suite("Connections per client address", .serialized)
struct AddressConnectionLimitTests {
    @Test("It counts each address apart, refuses one at its limit, takes it again after a close, and warns once a minute")
    func counting() {
        let logs = CapturedLogs()
        let limit = AddressConnectionLimit(maximum: 2, logger: Logger(label: "test") { _ in CapturingLogHandler(logs: logs) })
        #expect(limit.admit("203.0.113.7") && limit.admit("203.0.113.7"))
        #expect(!limit.admit("203.0.113.7"))
        #expect(limit.admit("198.51.100.1"))
        #expect(limit.openConnections(from: "203.0.113.7") == 2)
        limit.release("203.0.113.7")
        #expect(limit.admit("203.0.113.7"))
        #expect(!limit.admit("203.0.113.7"))
        for _ in 0..<3 { limit.release("203.0.113.7") }
        #expect(limit.openConnections(from: "203.0.113.7") == 0)
        // Refused twice within the minute: one warning, naming the address.
        #expect(logs.all.map(\.message) == [
            "closing new connections from 203.0.113.7: it holds 2 open, the most one address may (--max-connections-per-address)",
        ])
        #expect(logs.all.map(\.level) == [.warning])
    }

    @Test("Loopback addresses are told apart from others", arguments: [
        ("127.0.0.1", true), ("127.3.2.1", true), ("::1", true), ("::ffff:127.0.0.1", true),
        ("128.0.0.1", false), ("10.0.0.1", false), ("2001:db8::1", false), ("::ffff:10.0.0.1", false),
    ])
    func loopback(address: String, isLoopback: Bool) throws {
        #expect(AddressConnectionLimit.isLoopback(try SocketAddress(ipAddress: address, port: 80)) == isLoopback)
    }

    /// Options for a live server with `perAddress` connections from one address, loopback
    /// counted or not, and connections left idle for a minute.
    static func options(perAddress: Int, countingLoopback: Bool) -> ServerOptions {
        ServerFixture.options { options in
            options.maximumConnectionsPerAddress = perAddress
            options.limitsLoopbackAddresses = countingLoopback
            options.idleTimeout = .seconds(60)
        }
    }

    /// Sends a search on `connection` and expects its answer, 200.
    static func expectServed(_ connection: RawHTTPConnection, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(connection.send("GET /api/countries?q=bog&scope=capital HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                sourceLocation: sourceLocation)
        #expect(try await connection.readResponse().status == 200, sourceLocation: sourceLocation)
    }

    @Test("A live server closes an address's connection past the limit at once, unanswered, and takes one again after a close")
    func pastTheLimit() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: Self.options(perAddress: 3, countingLoopback: true)) { client in
            var held = try (0..<3).map { _ in try RawHTTPConnection(port: client.port) }
            // The three are served.
            for connection in held {
                try await Self.expectServed(connection)
            }
            // The fourth is closed before anything is sent on it.
            let refused = try RawHTTPConnection(port: client.port)
            #expect(try await refused.readToEnd(timeout: .seconds(30), context: "the server closing").isEmpty)
            // One of the three closed, a new connection is served.
            held.removeFirst()
            var answered = false
            for _ in 0..<50 where !answered {
                try await Task.sleep(for: .milliseconds(100))
                answered = (try? await client.get("/api/countries?q=bog&scope=capital").status) == .ok
            }
            #expect(answered)
        }
        #expect(fixture.logs.all.filter { $0.message.hasPrefix("closing new connections from 127.0.0.1") }.count == 1)
    }

    @Test("Loopback is not limited unless asked: connections past the limit from 127.0.0.1 are served")
    func loopbackIsNotLimited() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: Self.options(perAddress: 2, countingLoopback: false)) { client in
            let connections = try (0..<4).map { _ in try RawHTTPConnection(port: client.port) }
            for connection in connections {
                try await Self.expectServed(connection)
            }
        }
        #expect(!fixture.logs.all.contains { $0.message.hasPrefix("closing new connections") })
    }
}
#endif
