#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}/suggestions`: "did you mean" for a text that found nothing.
@Suite("Suggestions API")
struct SuggestionsControllerTests {
    struct SuggestionsBody: Decodable, Equatable {
        let suggestions: [String]
    }

    @Test("Real misspellings: the names the library suggests, in the scope asked for", arguments: [
        ("countries", "q=phillipines", ["Philippines"]),
        ("countries", "q=Columbia", ["Colombia"]),
        ("countries", "q=kazakstan&match=contains", ["Kazakhstan"]),
        ("countries", "q=bogata&scope=capital", ["Bogotá"]),
        ("countries", "q=bogata&scope=CAPITAL", ["Bogotá"]),
        ("countries", "q=bogata", []),
        ("countries", "q=", []),
        ("products", "q=ipohne", ["iPhone"]),
    ])
    func misspellings(entity: String, query: String, expected: [String]) async throws {
        let fixture = try ServerFixture()
        let answer = try await fixture.test { client in try await client.get("/api/\(entity)/suggestions?" + query) }
        #expect(answer.status == .ok)
        let body = try answer.decode(SuggestionsBody.self)
        #expect(body.suggestions.prefix(expected.count) == ArraySlice(expected), "\(body.suggestions)")
        if expected.isEmpty { #expect(body.suggestions.isEmpty) }
    }

    @Test("The same as the library's, scope by scope; a product type is a scope")
    func sameAsLibrary() async throws {
        let fixture = try ServerFixture()
        try await fixture.catalogue.write { db in try db.insert(Product(name: "Theremin", type: "music")) }
        let library = try await fixture.catalogue.read { db in
            try CatalogueSearch.suggestions(for: "theramin", scope: ProductScope.type("music"), in: db)
        }
        #expect(library == ["Theremin"])
        let body = try await fixture.test { client in try await client.get("/api/products/suggestions?q=theramin&scope=Music") }
            .decode(SuggestionsBody.self)
        #expect(body.suggestions == library)
    }

    @Test("The other match mode that finds the text in the scope, with its count; null when none does", arguments: [
        ("countries", "q=salvador", "words", 1),
        ("countries", "q=salvador&match=contains", nil, nil),
        ("countries", "q=lvador", "contains", 1),
        ("countries", "q=lvador&match=words", "contains", 1),
        ("countries", "q=lvador&match=terms", nil, nil),
        ("countries", "q=town&scope=capital", "words", 3),
        ("countries", "q=ds", nil, nil),
        ("countries", "q=phillipines", nil, nil),
        ("countries", "q=", nil, nil),
        ("products", "q=mini", "words", 2),
    ] as [(String, String, String?, Int?)])
    func foundWith(entity: String, query: String, match: String?, count: Int?) async throws {
        struct Body: Decodable {
            struct FoundWith: Decodable {
                let match: String
                let count: Int
            }
            let suggestions: [String]
            let foundWith: FoundWith?
        }
        let fixture = try ServerFixture()
        let answer = try await fixture.test { client in try await client.get("/api/\(entity)/suggestions?" + query) }
        #expect(answer.status == .ok)
        let body = try answer.decode(Body.self)
        #expect(body.foundWith?.match == match)
        #expect(body.foundWith?.count == count)
        // Always present: null when no other mode finds the text.
        #expect(try answer.json.keys.contains("foundWith"))
    }

    @Test("An unknown scope or match mode, or text over the limit, is a 400")
    func badParameters() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client async throws in
            let scope = try await client.get("/api/countries/suggestions?q=x&scope=planet")
            #expect(scope.status == .badRequest)
            #expect(scope.errorMessage == "unknown scope 'planet' for countries; valid scopes: name, capital, any")
            #expect(try await client.get("/api/countries/suggestions?q=x&match=x").status == .badRequest)
            let long = String(repeating: "a", count: ServerOptions.maximumTextLength + 1)
            #expect(try await client.get("/api/countries/suggestions?q=" + long).status == .badRequest)
        }
    }

    @Test("A name imported after a first answer is suggested: the cache forgets on a change")
    func followsChanges() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client async throws in
            let before = try await client.get("/api/products/suggestions?q=theramin").decode(SuggestionsBody.self)
            #expect(before.suggestions.isEmpty)
            let imported = try await client.post("/api/products/import", "name,type\nTheremin,music\n")
            #expect(imported.status == .ok)
            let after = try await client.get("/api/products/suggestions?q=theramin").decode(SuggestionsBody.self)
            #expect(after.suggestions == ["Theremin"])
        }
    }
}
#endif
