import CatalogueKit
import Foundation
import Testing

/// ``PreparedSearch``: keystrokes bound into statements compiled once give exactly the records
/// and counts of the request compiled per text, on every engine.
@Suite("Prepared searches")
struct PreparedSearchTests {
    /// Texts of every shape a keystroke may have: prefixes with case and diacritics, spaces
    /// around, wildcards and quotes as text, none, only spaces, non-Latin and astral text, NUL,
    /// and a key without a successor (U+10FFFF).
    static let texts = [
        "a", "S", "sa", "Saint", "saint v", "cô", "CÔTE", "Cote d", " bog ", "BOGO", "ivory", "united k", "",
        "   ", "%", "_", "a%", "o'", "\"", "\\", "Ελ", "日本", "🇫🇷", "a\u{0}b", "\u{10FFFF}", "zz", "Åland", "ﬁ",
    ]

    @Test("Countries in every scope and mode: the same records, order and count as the request compiled per text", arguments: EngineUnderTest.all)
    func countriesMatchCompiledRequests(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        for scope in CountryScope.allCases {
            for mode in MatchMode.allCases {
                let search = try catalogue.prepareSearch(countries: scope, mode: mode, limit: 7, count: .capped(at: 10))
                #expect(search.bindsTextOnly == (mode == .prefix), "\(scope) \(mode)")
                for text in Self.texts {
                    let request = CatalogueSearch.countries(matching: text, scope: scope, mode: mode)
                    try expectSameResults(search, catalogue: catalogue, request: request, text: text)
                }
            }
        }
    }

    @Test("Products of all types and of one type, with pages longer and shorter than the matches", arguments: EngineUnderTest.all)
    func productsMatchCompiledRequests(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let names = ["Crème brûlée", "Creme fraiche", "CRÈME de la crème", "Crémant", "Cream", "Cre%dit", "Cre_dit", "Ćevapi", "crêpe", "Zéphyr"]
        try catalogue.write { db in
            for (index, name) in names.enumerated() {
                try db.insert(Product(name: name, type: index.isMultiple(of: 2) ? "dessert" : "Drink"))
            }
        }
        for scope in [ProductScope.all, .type("dessert"), .type("DRINK"), .type("none")] {
            for limit in [1, 3, 50] {
                for count in [CountLimit.exact, .capped(at: 2), .capped(at: 4)] {
                    let search = try catalogue.prepareSearch(products: scope, mode: .prefix, limit: limit, count: count)
                    #expect(search.bindsTextOnly)
                    for text in Self.texts + ["cre", "CRÉ", "crem", "cre%", "cre_", "ce", "c"] {
                        try expectSameResults(
                            search, catalogue: catalogue,
                            request: CatalogueSearch.products(matching: text, scope: scope, mode: .prefix), text: text)
                    }
                }
            }
        }
        let search = try catalogue.prepareSearch(products: .all, limit: 3, count: .capped(at: 4))
        #expect(try search.fetch("cre").map(\.name) == ["Cre%dit", "Cre_dit", "Cream"])
        let many = try search.search("CRE")
        #expect(many.records.count == 3 && many.totalCount == 4 && many.isCountExact == false)
        #expect(many.summary == "More than 4 items found")
        #expect(try search.search("crème").summary == "3 items found")
        #expect(try search.search("cre%").records.map(\.name) == ["Cre%dit"], "a wildcard is text")
    }

    @Test("A prepared search sees later writes", arguments: EngineUnderTest.all)
    func followsWrites(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let search = try catalogue.prepareSearch(products: .all, limit: 2)
        #expect(try search.search("qu").totalCount == 0)
        try catalogue.write { db in
            for name in ["Quokka", "Quince", "Quail egg"] { try db.insert(Product(name: name, type: "food")) }
        }
        let results = try search.search("qu")
        #expect(results.records.map(\.name) == ["Quail egg", "Quince"] && results.totalCount == 3)
        #expect(try search.fetch("QUO").map(\.name) == ["Quokka"])
    }

    @Test("An app's own request: prepared when its SQL depends on the text only through the key", arguments: EngineUnderTest.all)
    func ownRequests(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let europe = try PreparedSearch(catalogue: catalogue, limit: 5) { text in
            FetchRequest<Country>(
                predicate: .and([.equals("continent", "Europe"), .beginsWith("name", text, options: .caseAndDiacriticInsensitive)]),
                sortDescriptors: FetchSortDescriptor.byName)
        }
        #expect(europe.bindsTextOnly)
        #expect(try europe.fetch("a").map(\.name) == ["Åland Islands", "Albania", "Andorra", "Austria"])
        // Compared case-sensitively, the text is not the folded key: compiled per text.
        let exact = try PreparedSearch(catalogue: catalogue) { text in
            FetchRequest<Country>(predicate: .beginsWith("name", text), sortDescriptors: FetchSortDescriptor.byName)
        }
        #expect(exact.bindsTextOnly == false)
        let french = try exact.fetch("Fr").map(\.name)
        #expect(french.contains("France") && french.allSatisfy { $0.hasPrefix("Fr") })
        #expect(try exact.fetch("fr").isEmpty)
        // Texts in a list of several values each: not one key, compiled per text.
        let codes = try PreparedSearch(catalogue: catalogue) { text in
            FetchRequest<Country>(
                predicate: .in(column: "code", values: [.text(text), .text(text + "X")], options: []),
                sortDescriptors: FetchSortDescriptor.byName)
        }
        #expect(codes.bindsTextOnly == false)
        #expect(try codes.fetch("FR").map(\.name) == ["France"])
    }

    @Test("The interactive mode's prepared search and the async forms", arguments: EngineUnderTest.all)
    func namedScopesAndAsync(engine: EngineUnderTest) async throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let search = try catalogue.prepareSearch(Country.self, scope: "capital", limit: 3)
        #expect(search.bindsTextOnly)
        #expect(try await search.fetch("bog").map(\.name) == ["Colombia"])
        let results = try await search.search("b")
        #expect(results.records.count == 3 && results.totalCount > 3)
        let compiled = try await catalogue.fetch(search.request(for: "b"))
        #expect(results.records == compiled)
    }

    private func expectSameResults<R: Record & Equatable>(
        _ search: PreparedSearch<R>, catalogue: Catalogue, request: FetchRequest<R>, text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try catalogue.search(request, limit: search.limit, count: search.count)
        let prepared = try search.search(text)
        #expect(prepared.records == expected.records, "records of \(String(reflecting: text))", sourceLocation: sourceLocation)
        #expect(prepared.totalCount == expected.totalCount && prepared.isCountExact == expected.isCountExact,
                "count of \(String(reflecting: text)): \(prepared.summary) vs \(expected.summary)", sourceLocation: sourceLocation)
        #expect(try search.fetch(text) == expected.records, "page of \(String(reflecting: text))", sourceLocation: sourceLocation)
    }
}
