#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// Whatever a client sends in a query string or path, the answer is results or a 400 (or a 404
/// for a path), never a 500, and the database is unchanged.
@Suite("Hostile input")
struct HostileInputTests {
    /// The texts of Tests/CatalogueKitTests/HostileSearchTextTests.swift (those the 256-character
    /// cap lets through get results; the long ones a 400).
    static let texts: [String] = [
        "\"", "*", "^", ":", "-", "(", ")", "NEAR", "AND", "OR", "NOT", "C++", "\"unterminated", "a OR b", "col:val",
        "'; DROP TABLE country; --", "%", "_", "\\", "\\\\", "a\\%b_c", "NEAR(a b, 2)", "{name} : x", "name:bo*",
        "a AND NOT b", "\"\"\"\"", "''", String(repeating: "aé", count: 34_000), "\u{0}", "\u{1}", "\u{7F}", "\t",
        "bo\u{0}livia", String(decoding: [0x62, 0x6F, 0xED, 0xA0, 0x80, 0xFF], as: UTF8.self), "\u{FFFD}",
        "🇨🇮 😀 👩‍👩‍👧", "مرحبا بالعالم", "שָׁלוֹם", "\u{202E}evil\u{202C}", "\u{301}", "\u{10FFFF}",
        (0..<10_000).map { "w\($0)" }.joined(separator: " "), (0..<2_000).map { "\($0)" }.joined(separator: " "),
        (0..<60).map { "w\($0)" }.joined(separator: " "),
    ]

    /// The largest request line and headers SwiftNIO's HTTP parser takes (llhttp's 80 KB).
    static let largestRequestHead = 80 * 1024

    static let endpoints = ["/api/countries", "/api/products", "/api/countries/sections", "/api/products/sections",
                            "/api/countries/scopes", "/api/products/scopes", "/api/countries/sections/S", "/api/products/sections/%23"]

    @Test("Hostile search texts get results or a 400, in every mode, on every list endpoint")
    func hostileTexts() async throws {
        let fixture = try ServerFixture()
        let before = try await (fixture.catalogue.fetchCount(FetchRequest<Country>()), fixture.catalogue.fetchCount(FetchRequest<Product>()))
        try await fixture.test { client in
            for text in Self.texts {
                for mode in MatchMode.allCases {
                    for endpoint in Self.endpoints {
                        let uri = "\(endpoint)?q=\(queryEncoded(text))&match=\(mode.rawValue)"
                        let answer = try await client.get(uri)
                        let label = "\(endpoint) \(mode) \(String(text.debugDescription.prefix(40)))"
                        let tooLong = text.unicodeScalars.count > ServerOptions.maximumTextLength
                        if uri.utf8.count > Self.largestRequestHead {
                            // Refused by SwiftNIO's HTTP parser before any route (docs/openapi.yaml),
                            // with the reason (MalformedRequestHandler).
                            #expect(answer.status == .badRequest, "\(label)")
                            #expect(answer.text.contains("larger than 80 KiB"), "\(label): \(answer.text.prefix(200))")
                            #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(label)")
                            continue
                        }
                        if tooLong {
                            #expect(answer.status == .badRequest, "\(label)")
                        } else {
                            #expect(answer.status == .ok || answer.status == .notFound && endpoint.contains("/sections/"), "\(label): \(answer.status) \(answer.text.prefix(200))")
                        }
                        #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(label)")
                    }
                }
            }
        }
        let after = try await (fixture.catalogue.fetchCount(FetchRequest<Country>()), fixture.catalogue.fetchCount(FetchRequest<Product>()))
        #expect(before == after)
    }

    @Test("Hostile scopes, codes and titles are 400s or 404s, never SQL")
    func hostileKeys() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for scope in ["'; DROP TABLE product; --", "%00", "a%20OR%201=1", "\u{202E}"] {
                let answer = try await client.get("/api/products?scope=" + queryEncoded(scope))
                #expect(answer.status == .badRequest, "\(scope)")
                #expect(answer.errorMessage?.hasPrefix("unknown product type") == true)
                #expect(answer.errorMessage?.contains("\n") == false)
            }
            for path in ["/api/countries/%00", "/api/products/-1", "/api/products/1%20OR%201", "/api/countries/%E2%80%AE",
                         "/api/countries/sections/%00", "/api/products/sections/%F0%9F%87%A8"] {
                #expect(try await client.get(path).status == .notFound, "\(path)")
            }
        }
    }

    @Test("Invalid percent-encoding and invalid UTF-8 in a parameter are 400s naming it")
    func invalidEncoding() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for query in ["q=%ZZ", "q=%", "q=%4", "q=%FF%FE", "q=%C3", "q=%ED%A0%80", "q=ok&scope=%C0%AF", "q=a&limit=%"] {
                let answer = try await client.get("/api/countries?" + query)
                #expect(answer.status == .badRequest, "\(query)")
                #expect(answer.errorMessage?.contains("invalid percent-encoding or is not UTF-8") == true, "\(query)")
            }
            // A broken parameter the endpoint does not read is ignored.
            #expect(try await client.get("/api/countries?q=bo&utm=%ZZ").status == .ok)
            #expect(try await client.get("/api/countries/sections/%ZZ").status == .notFound)
        }
    }

    @Test("Raw bytes that are not UTF-8 in the request line get a 400 or results, and the server goes on")
    func rawBytes() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let port = client.port
            for bytes in [[0xFF, 0xFE], [0xC3], [0xED, 0xA0, 0x80], [0x00]] as [[UInt8]] {
                let connection = try RawHTTPConnection(port: port)
                connection.send(Array("GET /api/countries?q=".utf8) + bytes + Array(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                let text = String(decoding: (try? await connection.read(until: { $0.count > 12 }, context: "a status")) ?? [], as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.1 400"), "\(bytes): \(text.prefix(40))")
            }
            #expect(try await client.get("/api/countries?q=bog&scope=capital").status == .ok)
        }
    }
}
#endif
