#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}/changes`: Server-Sent Events that report imports through the API, writes
/// through the same catalogue, and writes by another process, on a live server.
@Suite("Change streams", .serialized)
struct ChangesControllerTests {
    /// The whole `change` events in `text`, decoded.
    static func changes(in text: String) throws -> [[String: Any]] {
        try text.components(separatedBy: "\n\n").dropLast().compactMap { event -> [String: Any]? in
            let lines = event.split(separator: "\n")
            guard lines.contains("event: change"), let data = lines.first(where: { $0.hasPrefix("data: ") }) else { return nil }
            return try JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8)) as? [String: Any]
        }
    }

    /// Reads until `count` whole change events have come; returns them all.
    static func readChanges(_ stream: RawHTTPConnection, count: Int = 1, timeout: Duration = .seconds(30)) async throws -> [[String: Any]] {
        let bytes = try await stream.read(until: { bytes in
            ((try? changes(in: RawHTTPConnection.streamedBody(bytes)))?.count ?? 0) >= count
        }, timeout: timeout, context: "\(count) change events")
        return try changes(in: RawHTTPConnection.streamedBody(bytes))
    }

    /// Opens the stream of `entity` and waits for its `ready` event; returns the connection
    /// and the response head.
    static func open(_ entity: String, port: Int) async throws -> (RawHTTPConnection, String) {
        let connection = try RawHTTPConnection(port: port)
        connection.send("GET /api/\(entity)/changes HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        let text = try await connection.readText(containing: "event: ready\ndata: {}\n\n")
        #expect(text.hasPrefix("event: ready\ndata: {}\n\n"))
        let head = RawHTTPConnection.head(try await connection.read(until: { _ in true }, context: "the head")) ?? ""
        return (connection, head)
    }

    @Test("ready on connect; an import through the API arrives as a change with the new rows")
    func importThroughTheAPI() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let (stream, head) = try await Self.open("products", port: client.port)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.lowercased().contains("cache-control: no-cache"))
            let (countries, _) = try await Self.open("countries", port: client.port)
            let answer = try await client.post("/api/products/import", "name,type\nStreamed one,bulk\nStreamed two,bulk\n")
            #expect(answer.status == .ok)
            let ids = try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "streamed")).map(\.id!)
            let change = try #require(try await Self.readChanges(stream).first)
            #expect(change["entity"] as? String == "products")
            #expect((change["inserted"] as? [Int64]).map(Set.init) == Set(ids))
            #expect(change["updated"] as? [Int64] == [])
            #expect(change["deleted"] as? [Int64] == [])
            #expect(change["reload"] as? Bool == true)
            // The countries stream hears nothing of it.
            await #expect(throws: RawHTTPConnection.Failure.self) { try await countries.readText(containing: "event: change", timeout: .milliseconds(500)) }
        }
    }

    @Test("Writes through the same catalogue are split into inserted, updated and deleted rows")
    func writesInProcess() async throws {
        let fixture = try ServerFixture()
        let catalogue = fixture.catalogue
        try await fixture.test { client in
            let (stream, _) = try await Self.open("products", port: client.port)
            let inserted = try await catalogue.write { db in try db.insert(Product(name: "Kazoo", type: "music")) }
            let id = try #require(inserted.id)
            var change = try #require(try await Self.readChanges(stream, count: 1).last)
            #expect(change["inserted"] as? [Int64] == [id])
            #expect(change["reload"] as? Bool == false)
            var repriced = inserted
            repriced.price = 12
            let update = repriced
            try await catalogue.write { db in try db.update(update) }
            change = try #require(try await Self.readChanges(stream, count: 2).last)
            #expect(change["inserted"] as? [Int64] == [] && change["updated"] as? [Int64] == [id])
            try await catalogue.write { db in try db.delete(Product.self, id: id) }
            change = try #require(try await Self.readChanges(stream, count: 3).last)
            #expect(change["deleted"] as? [Int64] == [id] && change["updated"] as? [Int64] == [])
        }
    }

    // A write by another process: ServeCommandTests.writeByAnotherProcess, against a server in
    // a process of its own (here, the library's change poll runs on the test process's
    // cooperative pool, which other suites' synchronous tests can hold for a long time).

    @Test("Keep-alive comments on an idle stream; the stream ends when the server shuts down")
    func keepAliveAndShutdown() async throws {
        let fixture = try ServerFixture()
        let options = ServerFixture.options { $0.keepAliveInterval = .milliseconds(100) }
        let stream = try await fixture.test(options: options) { client in
            let (stream, _) = try await Self.open("countries", port: client.port)
            let text = try await stream.readText(containing: ": keep-alive\n\n: keep-alive\n\n")
            #expect(!text.contains("event: change"))
            return stream
        }
        // The test framework shut the server down gracefully: the open stream was ended.
        #expect(await stream.waitForClose(timeout: .seconds(30)))
    }

    @Test("Change streams past their limit are a 503 with Retry-After; a closed stream frees its place, for either entity")
    func streamLimit() async throws {
        let fixture = try ServerFixture()
        let options = ServerFixture.options { options in
            options.maximumChangeStreams = 2
            options.keepAliveInterval = .milliseconds(100)
        }
        try await fixture.test(options: options) { client in
            var first: RawHTTPConnection? = try await Self.open("products", port: client.port).0
            let (second, _) = try await Self.open("countries", port: client.port)
            let refused = try RawHTTPConnection(port: client.port)
            refused.send("GET /api/products/changes HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            let answer = try await refused.readResponse()
            #expect(answer.status == 503)
            #expect(answer.head.lowercased().contains("retry-after: 5"))
            #expect(answer.body.contains("too many change streams are open (at most 2)"))
            // Searches are still answered.
            #expect(try await client.get("/api/countries?q=bog&scope=capital").status == .ok)
            // Closed by its client, the first stream ends at its next keep-alive, and frees its place.
            first = nil
            var reopened: RawHTTPConnection?
            for _ in 0..<100 where reopened == nil {
                try await Task.sleep(for: .milliseconds(100))
                let attempt = try RawHTTPConnection(port: client.port)
                attempt.send("GET /api/products/changes HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
                if (try? await attempt.readText(containing: "event: ready", timeout: .seconds(2))) != nil { reopened = attempt }
            }
            #expect(reopened != nil)
            _ = (first, second)
        }
    }

    @Test("The broadcaster forgets a stream once it ends")
    func subscriptionsEnd() async throws {
        let fixture = try ServerFixture()
        let broadcaster = ChangeBroadcaster(
            catalogue: fixture.catalogue, cache: ResultCache(), pollingInterval: .milliseconds(20), logger: .init(label: "test"))
        let subscription = broadcaster.subscribe(to: .products) { _ in }
        #expect(broadcaster.subscriberCount == 1)
        subscription.cancel()
        #expect(broadcaster.subscriberCount == 0)
    }
}
#endif
