import CatalogueKit
import Foundation
import Testing

/// ``MatchMode/fuzzy``: words that forgive typos, with the exact matches first, on every engine.
@Suite("Fuzzy match mode")
struct FuzzyMatchTests {
    @Test("Real misspellings find what they meant: Columbia, Phillipines, Argentinia, Kazakstan; Bogata in the capital scope", arguments: EngineUnderTest.all)
    func misspellings(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        func names(_ text: String, _ scope: CountryScope = .name) throws -> [String] {
            try catalogue.records(CatalogueSearch.countries(matching: text, scope: scope, mode: .fuzzy)).map(\.name)
        }
        #expect(try names("Columbia") == ["Colombia"])
        #expect(try names("Phillipines") == ["Philippines"])
        #expect(try names("Argentinia") == ["Argentina"])
        #expect(try names("Kazakstan") == ["Kazakhstan"])
        #expect(try names("Bogata", .capital) == ["Colombia"])
        #expect(try names("united kingdim") == ["United Kingdom"])
        // The words mode finds none of them.
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "Columbia", mode: .words)).isEmpty)
        // A word of up to 4 characters has no typo; the first letter must be right.
        #expect(try names("Parus", .capital).contains("France"))
        #expect(try names("Bogata").isEmpty, "Bogotá is a capital, not a name")
        #expect(try names("Kolombia").isEmpty, "a typo in the first letter is not forgiven")
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ipda", mode: .fuzzy)).isEmpty)
    }

    @Test("Exact matches first, in the words order; then names beginning with a word meant, then other matches with typos; every page agrees", arguments: EngineUnderTest.all)
    func exactFirst(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            for name in ["Lamp", "Desk Lampe", "Lampe Berger", "Lampenschirm", "Amber lamp", "Lamb", "Clamp", "Ramp", "Lanterne"] {
                try db.insert(Product(name: name, type: "light"))
            }
        }
        let request = CatalogueSearch.products(matching: "lampe", mode: .fuzzy)
        let expected = ["Lampe Berger", "Lampenschirm", "Desk Lampe", "Lamp", "Amber lamp"]
        #expect(try catalogue.records(request).map(\.name) == expected)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lampe", mode: .words)).map(\.name)
            == Array(expected.prefix(3)))
        for size in 1...4 {
            let paged = try catalogue.pagedNames(request, size: size, count: expected.count)
            #expect(paged.totals.allSatisfy { $0 == expected.count }, "totals of pages of \(size): \(paged.totals)")
            #expect(paged.names == expected, "pages of \(size)")
        }
        let capped = try catalogue.search(request, limit: 1, count: .capped(at: 2))
        #expect(capped.totalCount == 2 && capped.isCountExact == false)
        #expect(try catalogue.read { db in try db.fetchCount(request, stoppingAfter: 100) } == expected.count)
        #expect(try catalogue.read { db in try db.fetchCounts(request, groupedBy: "type_key") } == ["light": 5])
        // Names that begin with a word meant come in name order, whichever word it is.
        try catalogue.write { db in
            for name in ["Lamb chop", "Lama", "Lamps", "Lamp post", "Alpaca lamb"] { try db.insert(Product(name: name, type: "other")) }
        }
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lampe", mode: .fuzzy)).map(\.name)
            == ["Lampe Berger", "Lampenschirm", "Desk Lampe", "Lamp", "Lamp post", "Lamps", "Amber lamp"])
        // Two words, one with a typo; within a type.
        #expect(try catalogue.records(CatalogueSearch.products(matching: "dsek lampe", mode: .fuzzy)).isEmpty, "4 characters: no typo")
        #expect(try catalogue.records(CatalogueSearch.products(matching: "desk lampr", mode: .fuzzy)).map(\.name) == ["Desk Lampe"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lantenre", scope: .type("light"), mode: .fuzzy)).map(\.name) == ["Lanterne"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lantenre", scope: .type("oil"), mode: .fuzzy)).isEmpty)
    }

    @Test("The words it may mean follow writes: inserted, renamed", arguments: EngineUnderTest.all)
    func followsWrites(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        func names(_ text: String) throws -> [String] {
            try catalogue.records(CatalogueSearch.products(matching: text, mode: .fuzzy)).map(\.name)
        }
        #expect(try names("zephyrime").isEmpty)
        var zephyr = try catalogue.write { db in try db.insert(Product(name: "Zephyrine scarf", type: "textile")) }
        #expect(try names("zephyrime") == ["Zephyrine scarf"])
        zephyr.name = "Zeppelin scarf"
        try catalogue.write { db in try db.update(zephyr) }
        #expect(try names("zephyrime").isEmpty)
        #expect(try names("zepelin") == ["Zeppelin scarf"])
        try catalogue.write { db in
            _ = try db.upsert(contentsOf: (0..<1_200).map { Product(name: "Quokka \($0)", type: "toy") })
        }
        #expect(try catalogue.read { db in try db.fetchCount(CatalogueSearch.products(matching: "qoukka", mode: .fuzzy)) } == 1_200)
    }

    @Test("Search text that is query syntax stays text", arguments: EngineUnderTest.all)
    func hostileText(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        for text in ["\"columbia\" OR *", "colum*bia", "NEAR(columbia)", "columbia:* | x", "col'umbia", "(colombia", "colombia\\"] {
            _ = try catalogue.records(CatalogueSearch.countries(matching: text, mode: .fuzzy))
        }
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "\"Columbia\" OR", mode: .fuzzy)).isEmpty)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "(Columbia)", mode: .fuzzy)).map(\.name) == ["Colombia"])
    }

    @Test("Highlighting marks the words matched with typos")
    func highlighting() {
        #expect(SearchHighlighter.marked(SearchHighlighter.segments(of: "Colombia", matching: "columbia", mode: .fuzzy)) == "[Colombia]")
        #expect(SearchHighlighter.marked(SearchHighlighter.segments(of: "Desk Lampe", matching: "lamp", mode: .fuzzy)) == "Desk [Lampe]")
        #expect(SearchHighlighter.marked(SearchHighlighter.segments(of: "Ramp", matching: "lampe", mode: .fuzzy)) == "Ramp")
        #expect(SearchHighlighter.marked(SearchHighlighter.segments(of: "Kolumbia", matching: "columbia", mode: .fuzzy)) == "Kolumbia",
                "a typo in the first letter is not forgiven, so not marked")
    }
}
