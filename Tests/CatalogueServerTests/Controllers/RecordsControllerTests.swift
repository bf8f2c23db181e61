#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/countries/{code}` and `GET /api/products/{id}`.
@Suite("Records API")
struct RecordsControllerTests {
    @Test("A country by code in any case, a product by id")
    func lookups() async throws {
        let fixture = try ServerFixture()
        let iPad = try #require(try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "ipad mini")).first)
        try await fixture.test { client in
            for code in ["CO", "co", "Co"] {
                let answer = try await client.get("/api/countries/\(code)")
                #expect(answer.status == .ok)
                #expect(try answer.decode(Country.self).name == "Colombia")
            }
            #expect(try await client.get("/api/products/\(iPad.id!)").decode(Product.self) == iPad)
        }
    }

    @Test("Unknown records are 404s with a message; literal paths win over codes")
    func notFound() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let cases = [
                ("/api/countries/XX", "no country with code 'XX'"),
                ("/api/products/999999999", "no product with id '999999999'"),
                ("/api/products/not-a-number", "no product with id 'not-a-number'"),
                ("/api/countries/%27%3B%20DROP%20TABLE%20country", "no country with code '\'; DROP TABLE country'"),
                ("/api/products/4.0", "no product with id '4.0'"),
            ]
            for (uri, message) in cases {
                let answer = try await client.get(uri)
                #expect(answer.status == .notFound, "\(uri)")
                #expect(answer.errorMessage == message, "\(uri)")
            }
            #expect(try await client.get("/api/countries/sections").json["sections"] != nil)
            #expect(try await client.get("/api/countries/scopes").json["scopes"] != nil)
        }
        #expect(try await fixture.catalogue.fetchCount(FetchRequest<Country>()) == 250)
    }

    @Test("Anything that is no route is a JSON 404")
    func noRoute() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for uri in ["/api", "/api/cities", "/nope", "/api/countries/CO/extra", "/index.html"] {
                let answer = try await client.get(uri)
                #expect(answer.status == .notFound, "\(uri)")
                #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                #expect(answer.errorMessage?.isEmpty == false, "\(uri)")
            }
            let post = try await client.execute(uri: "/api/countries", method: .post)
            #expect([.notFound, .methodNotAllowed].contains(post.status))
            #expect(post.errorMessage != nil)
        }
    }
}
#endif
