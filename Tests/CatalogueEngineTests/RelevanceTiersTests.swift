import CatalogueKit
import Testing

/// Words are ranked in tiers (`RelevanceTiers`): the name is the typed words or starts with
/// them as whole words, then the name starts with the text, then every other match; each tier
/// in display order. The same order on every engine, on every page.
@Suite("Relevance tiers")
struct RelevanceTiersTests {
    func names(_ catalogue: Catalogue, _ request: FetchRequest<Country>) throws -> [String] {
        try catalogue.records(request).map(\.name)
    }

    @Test("\"united ki\": United Kingdom before United States Minor Outlying Islands (which matches by an alias)", arguments: EngineUnderTest.all)
    func unitedKingdom(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        var islands = try #require(try catalogue.records(CatalogueSearch.countries(matching: "United States Minor")).first)
        islands.aliases.append("Kingman Reef")
        try catalogue.write { db in try db.update(islands) }
        let request = CatalogueSearch.countries(matching: "united ki", mode: .words)
        #expect(try names(catalogue, request) == ["United Kingdom", "United States Minor Outlying Islands"])
    }

    @Test("\"new\": New Caledonia and New Zealand (whole word, in name order) before Papua New Guinea", arguments: EngineUnderTest.all)
    func new(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        #expect(try names(catalogue, CatalogueSearch.countries(matching: "new", mode: .words))
            == ["New Caledonia", "New Zealand", "Papua New Guinea"])
        #expect(try names(catalogue, CatalogueSearch.countries(matching: "NEW", mode: .words)).first == "New Caledonia")
    }

    @Test("Whole words (followed by a space), then the start of the name, then later words; pages agree", arguments: EngineUnderTest.all)
    func tiers(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            for name in ["Amber lamp", "Lampshade", "Lamp", "Lamp-post", "Lamp shade", "Lamplighter", "Desk lamp"] {
                try db.insert(Product(name: name, type: "light"))
            }
            try db.insert(Product(name: "Lämp öil", type: "oil"))
        }
        let request = CatalogueSearch.products(matching: "lamp", mode: .words)
        let expected = ["Lamp", "Lämp öil", "Lamp shade", "Lamp-post", "Lamplighter", "Lampshade", "Amber lamp", "Desk lamp"]
        #expect(try catalogue.records(request).map(\.name) == expected)
        // Every page of every size agrees with the whole.
        for size in 1...4 {
            let paged = try catalogue.pagedNames(request, size: size, count: expected.count)
            #expect(paged.totals.allSatisfy { $0 == expected.count }, "totals of pages of \(size): \(paged.totals)")
            #expect(paged.names == expected, "pages of \(size)")
        }
        // Within one type, and with two words (the text "lamp sh").
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lamp", scope: .type("oil"), mode: .words)).map(\.name) == ["Lämp öil"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "lamp sh", mode: .words)).map(\.name) == ["Lamp shade"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "sha lam", mode: .words)).map(\.name) == ["Lamp shade"])
    }

    @Test("A tier read in order up to a bound, then collected beyond it, keeps display order on every page (words and fuzzy)", arguments: EngineUnderTest.all)
    func orderedReadBound(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let filler = RelevanceTiers.orderedReadLimit + 100
        let early = (0..<30).map { Product(name: "Aardvark lamp \($0)", type: "light") }
        let late = (0..<30).map { Product(name: "Zebra lamp \($0)", type: "light") }
        let fill = (0..<filler).map { Product(name: "Filler \($0)", type: "other") }
        try catalogue.write { db in _ = try db.upsert(contentsOf: late + fill + early) }
        // Tier 3 of "lamp": the early names lie within the first keys, the late ones beyond.
        let expected = (early + late).map(\.name).sorted { Folding.fold($0) < Folding.fold($1) }
        for (mode, text) in [(MatchMode.words, "lamp"), (.fuzzy, "lampe")] {
            let request = CatalogueSearch.products(matching: text, mode: mode)
            #expect(try catalogue.records(request).map(\.name) == expected, "\(mode)")
            for size in [7, 50] {
                #expect(try catalogue.pagedNames(request, size: size, count: expected.count).names == expected, "\(mode), pages of \(size)")
            }
        }
    }

    @Test("The capital scope ranks by capital: Bogotá before The Bottom", arguments: EngineUnderTest.all)
    func capital(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let found = try catalogue.records(CatalogueSearch.countries(matching: "bo", scope: .capital, mode: .words))
        #expect(found.map(\.capital) == ["Bogotá", "Kralendijk / Oranjestad / The Bottom"])
    }
}
