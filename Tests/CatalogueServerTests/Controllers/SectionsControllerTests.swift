#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// `GET /api/{entity}/sections` and `/sections/{title}`: sections by initial letter as
/// `SectionedResultsController` forms them, batches of their rows, and where a selected record
/// sits.
@Suite("Sections API")
struct SectionsControllerTests {
    struct SectionsBody: Decodable {
        struct Summary: Decodable, Equatable {
            let title: String
            let count: Int
        }

        struct Position: Decodable, Equatable {
            let title: String
            let offset: Int
        }

        let total: Int
        let sections: [Summary]
        let indexTitles: [String]
        let selected: Position?
    }

    struct Batch<Item: Decodable>: Decodable {
        let title: String
        let count: Int
        let offset: Int
        let items: [Item]
        let highlights: [[String: [SegmentBody]]]
    }

    static let fullIndex = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + ["#"]

    /// Every row of every section, read in batches of `batch`.
    static func allRows<Item: Decodable & Sendable>(
        _ type: Item.Type, entity: String, query: String, sections: [SectionsBody.Summary], batch: Int, client: TestClient
    ) async throws -> [(String, [Item])] {
        var result: [(String, [Item])] = []
        for section in sections {
            var rows: [Item] = []
            while rows.count < section.count {
                let segment = section.title.isEmpty ? "-" : queryEncoded(section.title)
                let answer = try await client.get("/api/\(entity)/sections/\(segment)?\(query)&offset=\(rows.count)&limit=\(batch)")
                #expect(answer.status == .ok, "\(section.title): \(answer.text)")
                let body = try answer.decode(Batch<Item>.self)
                #expect(body.count == section.count && body.title == section.title && body.offset == rows.count)
                #expect(!body.items.isEmpty && body.items.count <= batch && body.highlights.count == body.items.count)
                rows += body.items
            }
            result.append((section.title, rows))
        }
        return result
    }

    @Test("Countries by name: the sections, counts and rows of SectionedResultsController")
    func countriesByName() async throws {
        let fixture = try ServerFixture()
        let controller = SectionedResultsController(
            catalogue: fixture.catalogue, fetchRequest: FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName))
        try controller.performFetch()
        let (body, rows) = try await fixture.test { client in
            let body = try await client.get("/api/countries/sections").decode(SectionsBody.self)
            return (body, try await Self.allRows(Country.self, entity: "countries", query: "", sections: body.sections, batch: 7, client: client))
        }
        #expect(body.sections.map(\.title) == controller.sections.map(\.name))
        #expect(body.sections.map(\.count) == controller.sections.map(\.numberOfObjects))
        #expect(body.total == 250)
        #expect(body.indexTitles == Self.fullIndex)
        #expect(body.selected == nil)
        #expect(rows.map { $0.0 } == controller.sectionedIDs.map(\.name))
        #expect(rows.map { $0.1.map(\.id!) } == controller.sectionedIDs.map(\.ids))
    }

    @Test("Countries by capital: sections and rows follow the capital, as browsing by capital lists them (countries with a capital)")
    func countriesByCapital() async throws {
        let fixture = try ServerFixture()
        let controller = SectionedResultsController(
            catalogue: fixture.catalogue, fetchRequest: Country.entity.browseRequest(Country.entity.scopes[1]))
        try controller.performFetch()
        let (body, rows) = try await fixture.test { client in
            let body = try await client.get("/api/countries/sections?scope=capital").decode(SectionsBody.self)
            let rows = try await Self.allRows(Country.self, entity: "countries", query: "scope=capital", sections: body.sections, batch: 50, client: client)
            return (body, rows)
        }
        #expect(body.sections.map(\.title) == controller.sections.map(\.name))
        #expect(body.sections.map(\.count) == controller.sections.map(\.numberOfObjects))
        #expect(rows.map { $0.1.map(\.id!) } == controller.sectionedIDs.map(\.ids))
        #expect(!rows.isEmpty && rows.allSatisfy { $0.1.allSatisfy { $0.capital != nil } })
        let withoutCapital = try await fixture.catalogue.fetch(FetchRequest<Country>()).filter { $0.capital == nil }.count
        #expect(withoutCapital > 0, "the seed has countries without a capital, which the scope leaves out")
    }

    @Test("Products: the sections, counts and rows of SectionedResultsController, # last")
    func products() async throws {
        let fixture = try ServerFixture()
        try await fixture.catalogue.write { db in
            try db.insert(Product(name: "1-800 Flowers", type: "weddings"))
            try db.insert(Product(name: "Øresund bridge", type: "desktop"))
            try db.insert(Product(name: "Éclair maker", type: "kitchen"))
        }
        let controller = SectionedResultsController(
            catalogue: fixture.catalogue, fetchRequest: FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName))
        try controller.performFetch()
        let (body, rows) = try await fixture.test { client in
            let body = try await client.get("/api/products/sections").decode(SectionsBody.self)
            return (body, try await Self.allRows(Product.self, entity: "products", query: "", sections: body.sections, batch: 3, client: client))
        }
        #expect(body.sections.last?.title == "#")
        #expect(body.sections.map(\.title) == controller.sections.map(\.name))
        #expect(rows.map { $0.1.map(\.id!) } == controller.sectionedIDs.map(\.ids))
        #expect(rows.first { $0.0 == "E" }?.1.first?.name == "Éclair maker")
    }

    @Test("A search's sections partition its results, each in the search's order")
    func searchSections() async throws {
        let fixture = try ServerFixture()
        let searches: [(String, FetchRequest<Country>)] = [
            ("q=co", CatalogueSearch.countries(matching: "co")),
            ("q=an&match=contains&scope=any", CatalogueSearch.countries(matching: "an", scope: .any, mode: .contains)),
            ("q=a%20s&match=terms", CatalogueSearch.countries(matching: "a s", mode: .terms)),
        ]
        let rule = InitialLetterSectionRule()
        for (query, request) in searches {
            let flat = try await fixture.catalogue.fetch(request)
            var expected: [String: [Int64]] = [:]
            for country in flat {
                let title = rule.sectionName(first: country.name.unicodeScalars.first, foldedFirst: Folding.fold(country.name).unicodeScalars.first)
                expected[title, default: []].append(country.id!)
            }
            let (body, rows) = try await fixture.test { client in
                let body = try await client.get("/api/countries/sections?" + query).decode(SectionsBody.self)
                return (body, try await Self.allRows(Country.self, entity: "countries", query: query, sections: body.sections, batch: 4, client: client))
            }
            #expect(body.total == flat.count, "\(query)")
            #expect(body.sections.map(\.title) == rule.indexTitles.filter { expected[$0] != nil }, "\(query)")
            for (title, items) in rows {
                #expect(items.map(\.id!) == expected[title], "\(query) \(title)")
            }
        }
    }

    @Test("Words mode: one untitled section in relevance order, no index, rows under '-'")
    func rankedSection() async throws {
        let fixture = try ServerFixture()
        let expected = try await fixture.catalogue.fetch(CatalogueSearch.products(matching: "mac", mode: .words)).map(\.id!)
        let (body, rows) = try await fixture.test { client in
            let body = try await client.get("/api/products/sections?q=mac&match=words&selected=\(expected[1])").decode(SectionsBody.self)
            return (body, try await Self.allRows(Product.self, entity: "products", query: "q=mac&match=words", sections: body.sections, batch: 2, client: client))
        }
        #expect(body.sections == [SectionsBody.Summary(title: "", count: expected.count)])
        #expect(body.indexTitles.isEmpty)
        #expect(body.selected == SectionsBody.Position(title: "", offset: 1))
        #expect(rows.first?.1.map(\.id!) == expected)
    }

    @Test("selected: where the record sits, null when it is not among the results, absent when not asked")
    func selected() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let colombia = try await client.get("/api/countries/sections?q=co&selected=co")
            #expect(try colombia.decode(SectionsBody.self).selected == SectionsBody.Position(title: "C", offset: 1))
            let batch = try await client.get("/api/countries/sections/C?q=co&offset=1&limit=1").decode(Batch<Country>.self)
            #expect(batch.items.map(\.code) == ["CO"])
            let bogota = try await client.get("/api/countries/sections?q=bog&scope=capital&selected=CO").decode(SectionsBody.self)
            #expect(bogota.selected == SectionsBody.Position(title: "B", offset: 0))
            for query in ["q=co&selected=FR", "selected=XX", "q=co&selected=%27%3B--"] {
                let json = try await client.get("/api/countries/sections?" + query).json
                #expect(json["selected"] is NSNull, "\(query)")
            }
            #expect(try await client.get("/api/countries/sections?q=co").json["selected"] == nil)
            let iPad = try await client.get("/api/products/sections?q=ipad&selected=5").decode(SectionsBody.self)
            #expect(iPad.selected == SectionsBody.Position(title: "I", offset: 1))
            #expect(try await client.get("/api/products/sections?selected=abc").json["selected"] is NSNull)
        }
    }

    @Test("Unknown sections are 404s; bad windows and scopes 400s")
    func errors() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for uri in ["/api/countries/sections/X", "/api/countries/sections/-", "/api/countries/sections/AB",
                        "/api/products/sections/S?q=mac&match=words", "/api/countries/sections/%ZZ", "/api/countries/sections/Z?q=co"] {
                let answer = try await client.get(uri)
                #expect(answer.status == .notFound, "\(uri)")
                #expect(answer.errorMessage?.hasPrefix("no section") == true, "\(uri): \(answer.text)")
            }
            for uri in ["/api/countries/sections/S?limit=501", "/api/countries/sections?scope=x", "/api/countries/sections?match=x",
                        "/api/countries/sections/S?offset=-2"] {
                #expect(try await client.get(uri).status == .badRequest, "\(uri)")
            }
            let lower = try await client.get("/api/countries/sections/s?limit=1")
            #expect(try lower.decode(Batch<Country>.self).title == "S")
            let accented = try await client.get("/api/countries/sections/%C3%A9?limit=1")
            #expect(try accented.decode(Batch<Country>.self).title == "E", "é is the section E: \(accented.text)")
            let other = try await client.get("/api/countries/sections/%23?scope=capital")
            #expect(other.status == .notFound, "no capital starts with a non-letter: \(other.text)")
        }
    }
}
#endif
