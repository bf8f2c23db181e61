import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

@Suite("Interactive data source: browse sections, search windows, detail")
struct InteractiveDataSourceTests {
    /// A seeded catalogue in a temporary file, shared by the tests of this suite.
    static let catalogue: Catalogue = {
        try! Catalogue(path: InteractiveScratchFiles.path("data-source.sqlite"))
    }()

    @Test("Browsing countries by name: sections A…Z, index titles, jump table with the nearest following section")
    func browseCountries() throws {
        let source = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        let (layout, position) = try source.load(mode: .browse, text: "", scope: ScopeChoice.countryScopes[0], locating: nil)
        #expect(position == nil)
        #expect(layout.count >= 245)
        #expect(layout.sections.first?.title == "A")
        #expect(layout.indexTitles.first == "A")
        #expect(layout.indexTitles == layout.sections.map(\.title))
        #expect(layout.summary == "\(layout.count) countries")
        // No country starts with X: X jumps to the next section, Y.
        #expect(!layout.indexTitles.contains("X"))
        let x = try #require(layout.jumpTable["X"])
        #expect(layout.sections[x].title == "Y")
        let rows = try source.rows(0..<3)
        #expect(rows[0]?.texts.first == "Afghanistan")
        #expect(rows[1]?.texts.first == "Åland Islands")
    }

    @Test("Searching is prefix, case and diacritic insensitive, with the library's summary")
    func searchCountries() throws {
        let source = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        let expected = try Self.catalogue.search(CatalogueSearch.countries(matching: "co"), limit: nil)
        let (layout, _) = try source.load(mode: .search, text: "co", scope: ScopeChoice.countryScopes[0], locating: nil)
        #expect(layout.count == expected.totalCount)
        #expect(layout.summary == expected.summary)
        #expect(layout.sections.isEmpty && layout.indexTitles.isEmpty)
        let cells = try source.rows(0..<layout.count).sorted { $0.key < $1.key }.map { $0.value.cells[0] }
        // Each name, with the alias it was found by after it when the name itself does not match.
        #expect(cells.map { $0.segments.prefix { $0.emphasis != .note }.map(\.text).joined() } == expected.records.map(\.name))
        let bahamas = try #require(cells.first { $0.text.hasPrefix("Bahamas") })
        #expect(bahamas.text == "Bahamas — Commonwealth of the Bahamas")
        #expect(bahamas.segments.contains(ListCell.Segment("Co", .match)))
        #expect(bahamas.segments.contains(ListCell.Segment(" — ", .note)))
        let colombia = try #require(cells.first { $0.text == "Colombia" })
        #expect(colombia.segments == [ListCell.Segment("Co", .match), ListCell.Segment("lombia", .plain)])

        let capital = try source.load(mode: .search, text: "BOGOTA", scope: ScopeChoice.countryScopes[1], locating: nil)
        #expect(capital.layout.summary == "1 item found")
        #expect(try source.rows(0..<1)[0]?.texts == ["Bogotá", "Colombia", "49,648,685"])

        let none = try source.load(mode: .search, text: "bog", scope: ScopeChoice.countryScopes[0], locating: nil)
        #expect(none.layout.summary == "No items found")
    }

    @Test("A record is located by id across modes and scopes")
    func locating() throws {
        let source = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        let search = try source.load(mode: .search, text: "colombia", scope: ScopeChoice.countryScopes[0], locating: nil)
        #expect(search.layout.count == 1)
        let id = try #require(try source.rows(0..<1)[0]?.id)
        let browse = try source.load(mode: .browse, text: "", scope: ScopeChoice.countryScopes[1], locating: id)
        let position = try #require(browse.position)
        let section = browse.layout.section(containing: position)
        #expect(browse.layout.sections[section].title == "B")  // Bogotá, by capital
        #expect(try source.rows(position..<(position + 1))[position]?.texts.first == "Bogotá")

        // Beyond the first window of a search.
        let all = try source.load(mode: .search, text: "", scope: ScopeChoice.countryScopes[0], locating: nil)
        let lastID = try #require(try source.rows((all.layout.count - 1)..<all.layout.count)[all.layout.count - 1]?.id)
        let again = try source.load(mode: .search, text: "", scope: ScopeChoice.countryScopes[0], locating: lastID)
        #expect(again.position == all.layout.count - 1)
    }

    @Test("Products: All and one scope per type; a type scope filters browse and search")
    func products() throws {
        let source = try InteractiveSources.source(for: .products, catalogue: Self.catalogue)
        #expect(source.scopes.first == ScopeChoice(title: "All", key: "all"))
        #expect(source.scopes.contains(ScopeChoice(title: "Device", key: "device")))
        let device = try #require(source.scopes.first { $0.key == "device" })
        let (layout, _) = try source.load(mode: .browse, text: "", scope: device, locating: nil)
        let rows = try source.rows(0..<layout.count)
        #expect(!rows.isEmpty && rows.values.allSatisfy { $0.texts[1] == "device" })
        let search = try source.load(mode: .search, text: "ipa", scope: device, locating: nil)
        #expect(search.layout.summary == "2 items found")
        #expect(try source.rows(0..<2).values.map { $0.texts[0] }.sorted() == ["iPad", "iPad mini"])
    }

    @Test("Scope counts: one per scope, counted for the text and match mode; browse counts the sectioned lists")
    func scopeCounts() throws {
        let source = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        let search = try source.scopeCounts(mode: .search, text: "co", match: .prefix)
        #expect(search == [
            try Self.catalogue.fetchCount(CatalogueSearch.countries(matching: "co", scope: .name)),
            try Self.catalogue.fetchCount(CatalogueSearch.countries(matching: "co", scope: .capital)),
        ])
        #expect(search == [15, 4])
        let browse = try source.scopeCounts(mode: .browse, text: "co", match: .prefix)
        #expect(browse[0] == (try Self.catalogue.fetchCount(FetchRequest<Country>())))
        #expect(browse[1] < browse[0])
        let products = try InteractiveSources.source(for: .products, catalogue: Self.catalogue)
        let terms = try products.scopeCounts(mode: .search, text: "ipod 2007", match: .terms)
        #expect(terms.count == products.scopes.count)
        #expect(terms[0] == 1)
        #expect(terms[products.scopes.firstIndex { $0.key == "device" }!] == 1)
        #expect(terms.reduce(0, +) == 2)
    }

    @Test("A search with more matches than the cap lists and counts the first 10,000; its scope counts stop there too")
    func cappedSearch() throws {
        let catalogue = try Catalogue(path: InteractiveScratchFiles.path("capped.sqlite"), seed: false)
        let many = InteractiveCounts.cap + 50
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<many).map { Product(name: "Widget \($0)", type: "part") })
            try db.upsert(contentsOf: (0..<3).map { Product(name: "Widget tool \($0)", type: "tool") })
        }
        let source = try InteractiveSources.source(for: .products, catalogue: catalogue)
        let all = try #require(source.scopes.first)
        let (layout, _) = try source.load(mode: .search, text: "widget", scope: all, locating: nil)
        #expect(layout.count == InteractiveCounts.cap)
        #expect(!layout.isCountExact)
        #expect(layout.summary == "More than 10,000 items found")
        #expect(try source.rows(InteractiveCounts.cap - 1..<InteractiveCounts.cap + 1).keys.sorted() == [InteractiveCounts.cap - 1])
        // The selection is found again beyond the first window.
        let far = try #require(try source.rows(5_000..<5_001)[5_000]?.id)
        #expect(try source.load(mode: .search, text: "widget", scope: all, locating: far).position == 5_000)
        let counts = try source.scopeCounts(mode: .search, text: "widget", match: .prefix)
        #expect(counts[0] == InteractiveCounts.cap + 1)
        #expect(counts[source.scopes.firstIndex { $0.key == "tool" }!] == 3)
        #expect(try source.scopeCounts(mode: .browse, text: "", match: .prefix)[0] == many + 3)
        let few = try source.load(mode: .search, text: "widget tool", scope: all, locating: nil).layout
        #expect(few.isCountExact && few.count == 3 && few.summary == "3 items found")
    }

    @Test("Match modes: terms finds ipod 2007; the capital scope lists capitals first, by capital")
    func matchModesAndColumns() throws {
        let products = try InteractiveSources.source(for: .products, catalogue: Self.catalogue)
        let none = try products.load(mode: .search, text: "ipod 2007", match: .prefix, scope: products.scopes[0], locating: nil)
        #expect(none.layout.count == 0)
        let terms = try products.load(mode: .search, text: "ipod 2007", match: .terms, scope: products.scopes[0], locating: nil)
        #expect(terms.layout.count == 1)
        let row = try #require(try products.rows(0..<1)[0])
        #expect(row.texts.first == "iPod touch")
        #expect(row.cells[0].segments.first == ListCell.Segment("iPod", .match))
        let countries = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        let capital = try countries.load(mode: .search, text: "co", match: .prefix, scope: countries.scopes[1], locating: nil)
        #expect(capital.layout.columns.map(\.title) == ["Capital", "Name", "Population"])
        let capitals = try countries.rows(0..<capital.layout.count).sorted { $0.key < $1.key }.map { $0.value.texts[0] }
        #expect(capitals == ["Cockburn Town", "Colombo", "Conakry", "Copenhagen"])
    }

    @Test("Detail views: the show command's facts, title apart")
    func detail() throws {
        let source = try InteractiveSources.source(for: .countries, catalogue: Self.catalogue)
        _ = try source.load(mode: .search, text: "colombia", scope: ScopeChoice.countryScopes[0], locating: nil)
        let detail = try #require(try source.detail(at: 0, width: 78))
        #expect(detail.title == "Colombia  🇨🇴")
        #expect(detail.lines.first == "Republic of Colombia")
        let text = detail.lines.joined(separator: "\n")
        for fact in ["Capital", "Bogotá", "South America", "Population", "49,648,685", "Area", "Currency", "Languages"] {
            #expect(text.contains(fact), "\(fact)")
        }
        #expect(try source.detail(at: 5, width: 78) == nil)

        let products = try InteractiveSources.source(for: .products, catalogue: Self.catalogue)
        _ = try products.load(mode: .search, text: "ipad mini", scope: products.scopes[0], locating: nil)
        let product = try #require(try products.detail(at: 0, width: 78))
        #expect(product.title == "iPad mini")
        #expect(product.lines.first?.hasPrefix("ID ") == true)
        #expect(product.lines.joined().contains("659.00"))
    }
}
