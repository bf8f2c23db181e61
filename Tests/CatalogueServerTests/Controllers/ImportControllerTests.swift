#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `POST /api/{entity}/import`: only with the token, all or nothing, the CLI's error lines.
@Suite("Import API")
struct ImportControllerTests {
    struct Outcome: Decodable, Equatable {
        let added: Int
        let updated: Int
        let unchanged: Int
        let skipped: Int
        let issues: [String]
    }

    static let csv = "name,type,year,price\nTheremin,music,1920,350\n"

    @Test("A read-only server refuses every import with 403, whatever the header")
    func readOnly() async throws {
        let fixture = try ServerFixture()
        try await fixture.test(options: ServerFixture.options(readOnly: true)) { client in
            for token in [nil, ServerFixture.token, "anything"] {
                let answer = try await client.post("/api/products/import", Self.csv, token: token)
                #expect(answer.status == .forbidden)
                #expect(answer.errorMessage == "this server is read-only (start it with --token-file to allow imports)")
            }
        }
        #expect(try await fixture.catalogue.search(CatalogueSearch.products(matching: "theremin")).totalCount == 0)
    }

    @Test("No or a malformed Authorization header is a 401 with a Bearer challenge; a wrong token a 403")
    func authorization() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let missing = try await client.post("/api/products/import", Self.csv, token: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            for header in ["Basic abc", "Bearer", "Bearer ", "Token \(ServerFixture.token)", "Bearer a b", ServerFixture.token] {
                let answer = try await client.post("/api/products/import", Self.csv, token: nil, headers: [.authorization: header])
                #expect(answer.status == .unauthorized, "\(header)")
                #expect(answer.headers[.wwwAuthenticate] == "Bearer", "\(header)")
            }
            for token in ["wrong", ServerFixture.token + "x", String(ServerFixture.token.dropLast()), ServerFixture.token.uppercased()] {
                let answer = try await client.post("/api/products/import", Self.csv, token: token)
                #expect(answer.status == .forbidden, "\(token)")
                #expect(answer.errorMessage == "the import token is wrong")
            }
            let lowercaseScheme = try await client.post("/api/products/import", Self.csv, token: nil,
                                                        headers: [.authorization: "bearer \(ServerFixture.token)"])
            #expect(lowercaseScheme.status == .ok)
        }
        #expect(try await fixture.catalogue.search(CatalogueSearch.products(matching: "theremin")).totalCount == 1)
    }

    @Test("The right token imports: CSV by default, JSON and NDJSON when asked; counts as the CLI's")
    func formats() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let csv = try await client.post("/api/products/import", Self.csv)
            #expect(try csv.decode(Outcome.self) == Outcome(added: 1, updated: 0, unchanged: 0, skipped: 0, issues: []))
            let again = try await client.post("/api/products/import?format=csv", Self.csv)
            #expect(try again.decode(Outcome.self).unchanged == 1)
            let json = #"[{"name": "Theremin", "type": "music", "year": 1920, "price": 399}, {"name": "Ondes", "type": "music"}]"#
            #expect(try await client.post("/api/products/import?format=json", json).decode(Outcome.self)
                == Outcome(added: 1, updated: 1, unchanged: 0, skipped: 0, issues: []))
            let ndjson = "{\"code\": \"QZ\", \"name\": \"Testland\", \"capital\": \"Testville\", \"aliases\": [\"Testia\"]}\n"
            #expect(try await client.post("/api/countries/import?format=NDJSON", ndjson).decode(Outcome.self).added == 1)
            let found = try await client.get("/api/countries?q=testia").decode(SearchBody<Country>.self)
            #expect(found.items.map(\.code) == ["QZ"])
        }
        let theremin = try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "theremin")).first
        #expect(theremin?.price == 399)
    }

    @Test("Without format, the Content-Type names the body's format, else its first character does; format wins over both")
    func formatFromContentTypeOrBody() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let json = #"[{"name": "Theremin", "type": "music"}]"#
            let typed = try await client.post("/api/products/import", json, headers: [.contentType: "application/json; charset=utf-8"])
            #expect(try typed.decode(Outcome.self).added == 1)
            // curl --data-binary's default type names no format: the body's "[" says JSON.
            let sniffed = try await client.post(
                "/api/products/import", "\n  " + #"[{"name": "Ondes", "type": "music"}]"#,
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(try sniffed.decode(Outcome.self).added == 1)
            let ndjson = try await client.post(
                "/api/products/import", #"{"name": "Hang", "type": "music"}"# + "\n", headers: [.contentType: "application/x-ndjson"])
            #expect(try ndjson.decode(Outcome.self).added == 1)
            let csv = try await client.post("/api/products/import", "name,type\nKazoo,music\n", headers: [.contentType: "text/csv"])
            #expect(try csv.decode(Outcome.self).added == 1)
            // The parameter decides: this CSV body is read as CSV though the header says JSON.
            let overridden = try await client.post(
                "/api/products/import?format=csv", "name,type\nSitar,music\n", headers: [.contentType: "application/json"])
            #expect(try overridden.decode(Outcome.self).added == 1)
            // And a JSON header on a CSV body is read as JSON: a 400 naming the body, nothing written.
            let mislabelled = try await client.post(
                "/api/products/import", "name,type\nGong,music\n", headers: [.contentType: "application/json"])
            #expect(mislabelled.status == .badRequest)
            #expect(mislabelled.errorMessage?.hasPrefix("body:1: ") == true, "\(mislabelled.errorMessage ?? "")")
        }
        let names = try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "", scope: .type("music"))).map(\.name)
        #expect(Set(names).isSuperset(of: ["Theremin", "Ondes", "Hang", "Kazoo", "Sitar"]))
        #expect(!names.contains("Gong"))
    }

    @Test("abort: the first bad row is a 400 naming body:LINE and the column; nothing is written")
    func abort() async throws {
        let fixture = try ServerFixture()
        let before = try await fixture.catalogue.fetchCount(FetchRequest<Product>())
        try await fixture.test { client in
            let body = "name,type,year,price\nGood one,device,2000,1\nBad year,device,20x7,1\n"
            let answer = try await client.post("/api/products/import", body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage == #"body:3: year: not a whole number: "20x7""#)
            let header = try await client.post("/api/products/import", "name,colour\nx,red\n")
            #expect(header.status == .badRequest)
            #expect(header.errorMessage?.hasPrefix("body:1: colour: unknown column") == true, "\(header.text)")
            #expect(header.errorMessage?.contains("(the body holds") == false, "no hint for a column of neither entity")
            // A file of countries sent as products: the message says where it goes.
            let countries = try await client.post("/api/products/import", "code,name\nQZ,Testland\n")
            #expect(countries.status == .badRequest)
            #expect(countries.errorMessage == "body:1: code: unknown column; known columns: id, name, type, year, price "
                + "(the body holds countries: POST /api/countries/import)")
            let json = try await client.post("/api/products/import?format=json", #"[{"name": "x", "type": "y"},"#)
            #expect(json.status == .badRequest)
            #expect(json.errorMessage?.hasPrefix("body:1:") == true, "\(json.text)")
            let utf16 = try await client.execute(
                uri: "/api/products/import", method: .post, headers: [.authorization: "Bearer \(ServerFixture.token)"],
                body: ByteBuffer(bytes: try #require("name,type\nx,y\n".data(using: .utf16))))
            #expect(utf16.status == .badRequest)
            #expect(utf16.errorMessage == "body:1: encoding: UTF-16LE text, not UTF-8; convert it first: iconv -f UTF-16LE -t UTF-8")
        }
        #expect(try await fixture.catalogue.fetchCount(FetchRequest<Product>()) == before)
    }

    @Test("skip: bad rows are listed as issues and the others land")
    func skip() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let body = "name,type,year,price\nGood one,device,2000,1\nBad year,device,20x7,1\nBad price,device,2000,-3\n"
            let answer = try await client.post("/api/products/import?onError=skip", body)
            #expect(try answer.decode(Outcome.self) == Outcome(
                added: 1, updated: 0, unchanged: 0, skipped: 2,
                issues: [#"body:3: year: not a whole number: "20x7""#, "body:4: price: must not be negative: -3"]))
        }
        #expect(try await fixture.catalogue.search(CatalogueSearch.products(matching: "good one")).totalCount == 1)
    }

    @Test("skip: the answer lists the first 100 bad rows, each line cut at 1,000 characters; skipped counts them all")
    func skipManyBadRows() async throws {
        let fixture = try ServerFixture()
        // A header padded with spaces (which the column names may have) and rows of one field:
        // each bad row's line names every column, about 36,000 characters.
        let header = ["name", "type", "year", "price"].map { $0 + String(repeating: " ", count: 9_000) }.joined(separator: ",")
        let body = header + "\n" + String(repeating: "x\n", count: 5_000) + "Good one,device,2000,1\n"
        try await fixture.test { client in
            let answer = try await client.post("/api/products/import?onError=skip", body)
            let outcome = try answer.decode(Outcome.self)
            #expect(outcome.added == 1 && outcome.skipped == 5_000)
            #expect(outcome.issues.count == 100)
            #expect(outcome.issues.allSatisfy { $0.count <= 1_000 })
            #expect(outcome.issues.first?.hasPrefix("body:2: expected 4 fields (name") == true)
            #expect(outcome.issues.first?.hasSuffix("…") == true)
        }
    }

    @Test("Unknown format or onError values are 400s listing the valid ones")
    func badParameters() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let format = try await client.post("/api/products/import?format=xml", "<x/>")
            #expect(format.status == .badRequest)
            #expect(format.errorMessage == "unknown format 'xml'; valid values: csv, json, ndjson")
            let policy = try await client.post("/api/products/import?onError=maybe", "name,type\n")
            #expect(policy.errorMessage == "unknown onError 'maybe'; valid values: abort, skip")
        }
    }

    @Test("A body over the limit is a 413, by its Content-Length or as it streams in; nothing is written")
    func tooLarge() async throws {
        let fixture = try ServerFixture()
        let options = ServerFixture.options { $0.maximumBodySize = 1_000 }
        var big = "name,type,year,price\n"
        while big.utf8.count <= 1_000 { big += "Product \(big.utf8.count),bulk,2000,1\n" }
        let body = big
        try await fixture.test(options: options) { client in
            let answer = try await client.post("/api/products/import", body)
            #expect(answer.status == .contentTooLarge)
            #expect(answer.errorMessage == "the body is larger than the limit of 1000 bytes; nothing was imported")
            let small = try await client.post("/api/products/import", "name,type\nSmall,bulk\n")
            #expect(small.status == .ok)
        }
        // Chunked, without a Content-Length: refused as the bytes arrive.
        try await fixture.test(options: options) { client in
            let connection = try RawHTTPConnection(port: client.port)
            var request = "POST /api/products/import HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ServerFixture.token)\r\n"
            request += "Transfer-Encoding: chunked\r\n\r\n"
            connection.send(request)
            for chunk in stride(from: 0, to: body.utf8.count, by: 200) {
                let piece = String(decoding: Array(body.utf8)[chunk..<min(chunk + 200, body.utf8.count)], as: UTF8.self)
                connection.send(String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n")
            }
            connection.send("0\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.status == 413)
            #expect(response.body.contains("larger than the limit"))
        }
        #expect(try await fixture.catalogue.search(CatalogueSearch.products(matching: "product")).totalCount == 0)
    }
}
#endif
