#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}/scopes`: the count in each scope of the scope bar.
@Suite("Scopes API")
struct ScopesControllerTests {
    struct ScopesBody: Decodable {
        struct Scope: Decodable, Equatable {
            let scope: String
            let title: String
            let count: Int
        }

        let scopes: [Scope]
    }

    @Test("Countries: name then capital, counted as the searches count")
    func countries() async throws {
        let fixture = try ServerFixture()
        for (query, text, mode) in [("q=co", "co", MatchMode.prefix), ("q=an&match=contains", "an", .contains), ("", "", .prefix)] {
            let body = try await fixture.test { client in try await client.get("/api/countries/scopes?" + query) }.decode(ScopesBody.self)
            let name = try await fixture.catalogue.fetchCount(CatalogueSearch.countries(matching: text, scope: .name, mode: mode))
            let capital = try await fixture.catalogue.fetchCount(CatalogueSearch.countries(matching: text, scope: .capital, mode: mode))
            #expect(body.scopes == [.init(scope: "name", title: "Name", count: name), .init(scope: "capital", title: "Capital", count: capital)])
        }
    }

    @Test("Products: all, then every type in folded order, once, with a stored spelling, 0 included")
    func products() async throws {
        let fixture = try ServerFixture()
        try await fixture.catalogue.write { db in
            try db.insert(Product(name: "Zither", type: "Music"))
            try db.insert(Product(name: "Ukulele", type: "music"))
        }
        let body = try await fixture.test { client in try await client.get("/api/products/scopes?q=i") }.decode(ScopesBody.self)
        let types = try await fixture.catalogue.productTypes()
        #expect(body.scopes.map(\.scope) == ["all"] + types)
        #expect(body.scopes.first?.title == "All")
        // "Music" and "music" are one type, listed once, spelled as one of its rows has it.
        #expect(types.filter { $0.lowercased() == "music" }.count == 1, "\(types)")
        for scope in body.scopes {
            let parsed = ProductScope(parsing: scope.scope)
            let count = try await fixture.catalogue.fetchCount(CatalogueSearch.products(matching: "i", scope: parsed))
            #expect(scope.count == count, "\(scope.scope)")
        }
        #expect(body.scopes.contains { $0.count == 0 })
    }

    @Test("A bad match mode is a 400; a scope parameter is ignored")
    func parameters() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client async throws in
            #expect(try await client.get("/api/countries/scopes?match=x").status == .badRequest)
            #expect(try await client.get("/api/countries/scopes?scope=nonsense").status == .ok)
        }
    }
}
#endif
