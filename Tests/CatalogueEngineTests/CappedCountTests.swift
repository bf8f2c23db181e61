import CatalogueKit
import Testing

/// `search(…, count: .capped(at:))`: the count stops at its cap ("More than 1,000 items found"),
/// agrees with the exact count below it, and never says less than the page shows; on every engine.
@Suite("Capped counts")
struct CappedCountTests {
    /// A catalogue with 1,205 products named "Widget 0001"…, and 3 named "Gadget …".
    func catalogue(_ engine: EngineUnderTest) throws -> Catalogue {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            for number in 1...1_205 {
                try db.insert(Product(name: "Widget \(number)", type: "part"))
            }
            for number in 1...3 {
                try db.insert(Product(name: "Gadget \(number)", type: "part"))
            }
        }
        return catalogue
    }

    @Test("Above the cap: \"More than 1,000 items found\"; --count exact's figure with .exact", arguments: EngineUnderTest.all)
    func aboveTheCap(engine: EngineUnderTest) throws {
        let catalogue = try catalogue(engine)
        for mode in [MatchMode.prefix, .contains, .words, .terms] {
            let request = CatalogueSearch.products(matching: "widget", mode: mode)
            let capped = try catalogue.search(request, limit: 50, count: .standard)
            #expect(capped.records.count == 50, "\(mode)")
            #expect(!capped.isCountExact, "\(mode)")
            #expect(capped.totalCount == 1_000, "\(mode)")
            #expect(capped.summary == "More than 1,000 items found", "\(mode)")
            #expect(capped.shownSummary == "50 of more than 1,000 shown", "\(mode)")

            let exact = try catalogue.search(request, limit: 50)
            #expect(exact.isCountExact && exact.totalCount == 1_205, "\(mode)")
            #expect(exact.summary == "1,205 items found")
            #expect(exact.records.map(\.id) == capped.records.map(\.id), "the page does not depend on the count")
        }
    }

    @Test("At or below the cap the count is exact; a short page needs no count", arguments: EngineUnderTest.all)
    func belowTheCap(engine: EngineUnderTest) throws {
        let catalogue = try catalogue(engine)
        let widgets = CatalogueSearch.products(matching: "widget", mode: .contains)
        let atCap = try catalogue.search(widgets, limit: 10, count: .capped(at: 1_205))
        #expect(atCap.isCountExact && atCap.totalCount == 1_205)
        let justBelow = try catalogue.search(widgets, limit: 10, count: .capped(at: 1_204))
        #expect(!justBelow.isCountExact && justBelow.summary == "More than 1,204 items found")

        let gadgets = try catalogue.search(CatalogueSearch.products(matching: "gad"), limit: 2, count: .standard)
        #expect(gadgets.isCountExact && gadgets.totalCount == 3 && gadgets.summary == "3 items found")
        let short = try catalogue.search(CatalogueSearch.products(matching: "gad"), limit: 50, count: .capped(at: 1))
        #expect(short.isCountExact && short.totalCount == 3, "a page shorter than the limit is the whole result")
        let none = try catalogue.search(CatalogueSearch.products(matching: "zz"), limit: 50, count: .standard)
        #expect(none.isCountExact && none.summary == "No items found")
    }

    @Test("A cap below what the page shows counts exactly, so the summary never says less than is shown", arguments: EngineUnderTest.all)
    func capBelowThePage(engine: EngineUnderTest) throws {
        let catalogue = try catalogue(engine)
        let request = CatalogueSearch.products(matching: "widget")
        let results = try catalogue.search(request, limit: 100, offset: 50, count: .capped(at: 120))
        #expect(results.records.count == 100)
        #expect(results.isCountExact && results.totalCount == 1_205)
    }

    @Test("fetchCount(_:stoppingAfter:) is min(matches, limit)", arguments: EngineUnderTest.all)
    func stoppingAfter(engine: EngineUnderTest) throws {
        let catalogue = try catalogue(engine)
        let request = CatalogueSearch.products(matching: "widget", mode: .contains)
        let counts = try catalogue.read { db in
            [try db.fetchCount(request, stoppingAfter: 1), try db.fetchCount(request, stoppingAfter: 1_001),
             try db.fetchCount(request, stoppingAfter: 5_000), try db.fetchCount(request, stoppingAfter: 0)]
        }
        #expect(counts == [1, 1_001, 1_205, 0])
    }

    @Test("Scope counts up to a cap: each scope stops after cap + 1, the exact figure below it", arguments: EngineUnderTest.all)
    func scopeCounts(engine: EngineUnderTest) throws {
        let catalogue = try catalogue(engine)
        let scopes = try catalogue.scopes(of: Product.self)
        for mode in [MatchMode.prefix, .contains, .words, .terms] {
            let request = { (scope: SearchScope) in try Product.searchRequest(matching: "widget", scope: scope.key, mode: mode) }
            let exact = try catalogue.counts(of: scopes, request)
            let capped = try catalogue.counts(of: scopes, limit: .capped(at: 1_000), request)
            #expect(exact.first == 1_205, "\(mode)")
            #expect(capped == exact.map { min($0, 1_001) }, "\(mode)")
            #expect(try catalogue.counts(of: scopes, limit: .exact, request) == exact, "\(mode)")
        }
    }
}
