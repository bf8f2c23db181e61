#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}`: the same results, order and total as `catalogue search`, with
/// highlights; bad parameters are 400s that say what is wrong.
@Suite("Search API")
struct SearchControllerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let query: String
        let text: String
        let scope: String?
        let mode: MatchMode
        let limit: Int
        let offset: Int

        init(_ query: String, _ text: String, scope: String? = nil, mode: MatchMode = .prefix, limit: Int = 50, offset: Int = 0) {
            (self.query, self.text, self.scope, self.mode, self.limit, self.offset) = (query, text, scope, mode, limit, offset)
        }

        var testDescription: String { query }
    }

    static let countryCases: [Case] = [
        Case("q=bog&scope=capital", "bog", scope: "capital"),
        Case("q=co&scope=any&match=contains&limit=5&offset=2", "co", scope: "any", mode: .contains, limit: 5, offset: 2),
        Case("q=united%20ki&match=words", "united ki", mode: .words),
        Case("q=united+ki&match=words", "united ki", mode: .words),
        Case("q=ivory", "ivory"),
        Case("q=%20%20sa%20", "  sa "),
        Case("q=s&limit=7&offset=3", "s", limit: 7, offset: 3),
        Case("", ""),
        Case("limit=500", "", limit: 500),
        Case("q=C%C3%B4te&scope=NAME", "Côte", scope: "name"),
        Case("q=guinea%20a&match=terms", "guinea a", mode: .terms),
        Case("q=a&scope=any&match=contains&offset=240", "a", scope: "any", mode: .contains, offset: 240),
        Case("q=Columbia&match=fuzzy", "Columbia", mode: .fuzzy),
        Case("q=unite&scope=any&match=fuzzy&limit=3", "unite", scope: "any", mode: .fuzzy, limit: 3),
    ]

    static let productCases: [Case] = [
        Case("q=ipod%202007&match=terms", "ipod 2007", mode: .terms),
        Case("scope=Device", "", scope: "device"),
        Case("q=i&limit=3&offset=1", "i", limit: 3, offset: 1),
        Case("q=mac&match=words", "mac", mode: .words),
        Case("q=book&match=contains&scope=all", "book", scope: "all", mode: .contains),
        Case("q=iphnoe&match=fuzzy&scope=device", "iphnoe", scope: "device", mode: .fuzzy),
    ]

    @Test("Countries: the CLI's results, order and total", arguments: countryCases)
    func countries(_ example: Case) async throws {
        let fixture = try ServerFixture()
        let expected = try await fixture.catalogue.search(
            Country.searchRequest(matching: example.text, scope: example.scope, mode: example.mode), limit: example.limit,
            offset: example.offset)
        let answer = try await fixture.test { client in try await client.get("/api/countries?" + example.query) }
        #expect(answer.status == .ok)
        #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
        let body = try answer.decode(SearchBody<Country>.self)
        #expect(body.total == expected.totalCount)
        #expect(body.items == expected.records)
        #expect(body.highlights.count == body.items.count)
    }

    @Test("Products: the CLI's results, order and total", arguments: productCases)
    func products(_ example: Case) async throws {
        let fixture = try ServerFixture()
        let scope = example.scope.map(ProductScope.init(parsing:)) ?? .all
        let expected = try await fixture.catalogue.search(
            CatalogueSearch.products(matching: example.text, scope: scope, mode: example.mode), limit: example.limit,
            offset: example.offset)
        let answer = try await fixture.test { client in try await client.get("/api/products?" + example.query) }
        #expect(answer.status == .ok)
        let body = try answer.decode(SearchBody<Product>.self)
        #expect(body.total == expected.totalCount)
        #expect(body.items == expected.records)
        #expect(!body.items.isEmpty)
    }

    @Test("Items carry every column, null for missing values, aliases as a list")
    func itemShape() async throws {
        let fixture = try ServerFixture()
        let answer = try await fixture.test { client in try await client.get("/api/countries?q=bog&scope=capital") }
        let item = try #require((try answer.json["items"] as? [[String: Any]])?.first)
        #expect(Set(item.keys) == Set(["id"] + Country.entity.columnNames))
        #expect(item["code"] as? String == "CO")
        #expect(item["aliases"] as? [String] == ["Republic of Colombia", "República de Colombia"])
        let antarctica = try await fixture.test { client in try await client.get("/api/countries?q=antarctica") }
        let capital = try #require((try antarctica.json["items"] as? [[String: Any]])?.first)["capital"]
        #expect(capital is NSNull)
    }

    @Test("Highlights: the matched part of each field the text matched, concatenating to the field")
    func highlights() async throws {
        let fixture = try ServerFixture()
        func first(_ query: String) async throws -> [String: String?] {
            let body = try await fixture.test { client in try await client.get("/api/countries?" + query) }.decode(SearchBody<Country>.self)
            return try #require(body.highlights.first).mapValues { marked($0) }
        }
        #expect(try await first("q=bog&scope=capital") == ["capital": "[Bog]otá"])
        #expect(try await first("q=bogota&scope=any") == ["capital": "[Bogotá]"])
        #expect(try await first("q=ivory") == ["alias": "[Ivory] Coast"])
        #expect(try await first("q=cote") == ["name": "[Côte] d'Ivoire"])
        #expect(try await first("q=united%20ki&match=words") == ["name": "[United] [Ki]ngdom"])
        #expect(try await first("q=lomb&match=contains") == ["name": "Co[lomb]ia"])
        #expect(try await first("q=colombia%20bog&match=terms") == ["name": "[Colombia]", "capital": "[Bog]otá"])
        #expect(try await first("q=Columbia&match=fuzzy") == ["name": "[Colombia]"])
        #expect(try await first("q=Bogata&scope=capital&match=fuzzy") == ["capital": "[Bogotá]"])
        #expect(try await first("q=") == [:])
        let products = try await fixture.test { client in try await client.get("/api/products?q=ipod%202007&match=terms") }
            .decode(SearchBody<Product>.self)
        #expect(products.highlights.map { marked($0["name"]) } == products.items.map { _ in "[iPod] touch" })

        let any = try await fixture.test { client in try await client.get("/api/countries?q=co&scope=any&match=contains&limit=500") }
            .decode(SearchBody<Country>.self)
        for (item, highlight) in zip(any.items, any.highlights) {
            #expect(!highlight.isEmpty, "\(item.name) has no highlight")
            for (field, segments) in highlight {
                let text = segments.map(\.text).joined()
                switch field {
                case "name": #expect(text == item.name)
                case "capital": #expect(text == item.capital)
                case "alias": #expect(item.aliases.contains(text))
                default: Issue.record("unexpected field \(field)")
                }
                #expect(segments.contains { $0.match })
                #expect(segments.allSatisfy { !$0.text.isEmpty })
            }
        }
    }

    @Test("Bad parameters are 400s with one line saying what is wrong")
    func badParameters() async throws {
        let fixture = try ServerFixture()
        let long = String(repeating: "é", count: ServerOptions.maximumTextLength + 1)
        let cases: [(String, String)] = [
            ("/api/countries?scope=x", "unknown scope 'x' for countries; valid scopes: name, capital, any"),
            ("/api/countries?scope=Captial", "unknown scope 'Captial' for countries (did you mean 'capital'?); valid scopes: name, capital, any"),
            ("/api/products?scope=no-such-type",
             "unknown product type 'no-such-type' for products; valid scopes: all, birthdays, desktop, device, funerals, portable, weddings"),
            ("/api/countries?match=fuzzyish", "unknown match mode 'fuzzyish'; valid modes: prefix, contains, words, terms, fuzzy"),
            ("/api/countries?limit=0", "limit must be a whole number from 1 to 500, not '0'"),
            ("/api/countries?limit=501", "limit must be a whole number from 1 to 500, not '501'"),
            ("/api/countries?limit=ten", "limit must be a whole number from 1 to 500, not 'ten'"),
            ("/api/countries?offset=-1", "offset must be a whole number, 0 or more, not '-1'"),
            ("/api/products?offset=99999999999999999999", "offset must be a whole number, 0 or more, not '99999999999999999999'"),
            ("/api/countries?q=" + queryEncoded(long), "the search text is longer than 256 characters"),
        ]
        for (uri, message) in cases {
            let answer = try await fixture.test { client in try await client.get(uri) }
            #expect(answer.status == .badRequest, "\(uri)")
            #expect(answer.errorMessage == message, "\(uri)")
        }
        let longest = String(repeating: "é", count: ServerOptions.maximumTextLength)
        #expect(try await fixture.test { client in try await client.get("/api/countries?q=" + queryEncoded(longest)) }.status == .ok)
    }
}
#endif
