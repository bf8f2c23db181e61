#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}/export`: every record as `catalogue export` writes it, streamed as a
/// download; one export at a time; a client that goes away lets the next one in.
@Suite("Export API")
struct ExportControllerTests {
    /// What the library's exporter writes for `type` in `format`: the bytes the API must send.
    static func expected<R: ImportableRecord>(_ type: R.Type, _ format: RecordFileFormat, from catalogue: Catalogue) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try catalogue.exportRecords(type, format: format, to: ExportOutput { bytes += $0 })
        return bytes
    }

    @Test("Each format: the exporter's bytes, its media type and a download file name; CSV by default")
    func formats() async throws {
        let fixture = try ServerFixture()
        let expectations: [(String, RecordFileFormat, String)] = [
            ("", .csv, "text/csv; charset=utf-8"),
            ("?format=json", .json, "application/json; charset=utf-8"),
            ("?format=NDJSON", .ndjson, "application/x-ndjson; charset=utf-8"),
        ]
        let countries = try expectations.map { try Self.expected(Country.self, $0.1, from: fixture.catalogue) }
        let products = try expectations.map { try Self.expected(Product.self, $0.1, from: fixture.catalogue) }
        try await fixture.test { client in
            for (index, (query, format, type)) in expectations.enumerated() {
                for (entity, bytes) in [("countries", countries[index]), ("products", products[index])] {
                    let answer = try await client.get("/api/\(entity)/export\(query)")
                    #expect(answer.status == .ok, "\(entity)\(query): \(answer.text.prefix(200))")
                    #expect(answer.headers[.contentType] == type)
                    #expect(answer.headers[.contentDisposition] == "attachment; filename=\"\(entity).\(format.rawValue)\"")
                    #expect(Array(answer.body.readableBytesView) == bytes, "\(entity)\(query)")
                }
            }
            let bad = try await client.get("/api/products/export?format=xml")
            #expect(bad.status == .badRequest)
            #expect(bad.errorMessage == "unknown format 'xml'; valid values: csv, json, ndjson")
        }
    }

    /// Enough products (100,000) that an export cannot fit in the sockets' buffers while its
    /// client reads nothing.
    static func importBulkProducts(into catalogue: Catalogue) async throws {
        let rows = (0..<100_000).map { "Exported product number \($0),bulk,2000,1.5\n" }.joined()
        try await catalogue.importRecords(
            Product.self, from: ImportInput(text: "name,type,year,price\n" + rows, name: "bulk.csv"), options: ImportOptions(format: .csv))
    }

    /// The countries' export, asked for again while another export holds the slot (503), for up
    /// to 30 s.
    static func nextExport(_ client: TestClient) async throws -> TestResponse {
        let deadline = ContinuousClock.now + .seconds(30)
        var next = try await client.get("/api/countries/export")
        while next.status == .serviceUnavailable, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            next = try await client.get("/api/countries/export")
        }
        return next
    }

    @Test("One export at a time: a second gets 503 with Retry-After while a client holds the first; once it goes away, the next runs")
    func oneAtATime() async throws {
        let fixture = try ServerFixture()
        try await Self.importBulkProducts(into: fixture.catalogue)
        try await fixture.test { client in
            var holder: RawHTTPConnection? = try RawHTTPConnection(port: client.port, receiveBufferSize: 4096)
            holder?.send("GET /api/products/export?format=ndjson HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try await holder?.read(until: { RawHTTPConnection.head($0) != nil }, context: "the export's head")
            #expect(head.flatMap(RawHTTPConnection.head)?.hasPrefix("HTTP/1.1 200") == true)
            let busy = try await client.get("/api/countries/export")
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "5")
            #expect(busy.errorMessage == "another export is running; try again when it has finished")
            // The holder goes away without reading: its export stops, and the next one runs.
            holder = nil
            let next = try await Self.nextExport(client)
            #expect(next.status == .ok)
            #expect(Array(next.body.readableBytesView) == (try Self.expected(Country.self, .csv, from: fixture.catalogue)))
        }
        #expect(fixture.logs.all.contains { $0.message == "export stopped" }, "the stopped export is logged")
    }

    @Test("A client that keeps its export open but reads too little is cut off, and the next export runs")
    func tooSlowAClient() async throws {
        let fixture = try ServerFixture()
        try await Self.importBulkProducts(into: fixture.catalogue)
        // 1 MiB in each 300 ms: the client below reads nothing once the sockets' buffers are full.
        let options = ServerFixture.options { $0.exportPace = ExportStream.MinimumPace(bytes: 1 << 20, period: .milliseconds(300)) }
        try await fixture.test(options: options) { client in
            let holder = try RawHTTPConnection(port: client.port, receiveBufferSize: 4096)
            holder.send("GET /api/products/export?format=ndjson HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try await holder.read(until: { RawHTTPConnection.head($0) != nil }, context: "the export's head")
            #expect(RawHTTPConnection.head(head)?.hasPrefix("HTTP/1.1 200") == true)
            // Still connected, and the next export runs once the slow one is cut off.
            let next = try await Self.nextExport(client)
            #expect(next.status == .ok)
            // What the slow client gets is cut short, visibly: no last chunk, the connection closed.
            let received = try await holder.readToEnd(timeout: .seconds(60), context: "the slow client's response")
            let end = try #require(RawHTTPConnection.headEnd(received))
            let body = RawHTTPConnection.chunkedData(received[(end + 4)...])
            #expect(!body.complete)
            #expect(!body.data.isEmpty)
        }
        #expect(fixture.logs.all.contains { $0.message == "export stopped" && $0.metadata["reason"] == "tooSlow" }, "\(fixture.logs.all)")
    }
}
#endif
