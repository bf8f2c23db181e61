import CatalogueKit
import Testing

/// "Did you mean": `CatalogueSearch.suggestions(for:scope:in:)` finds the names real
/// misspellings meant, on every engine.
@Suite("Suggestions")
struct SuggestionsTests {
    @Test("Real misspellings: Columbia, Phillipines, Argentinia, Kazakstan; Bogata in the capital scope", arguments: EngineUnderTest.all)
    func misspellings(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        func suggested(_ text: String, _ scope: CountryScope = .name) throws -> [String] {
            try catalogue.read { db in try CatalogueSearch.suggestions(for: text, scope: scope, in: db) }
        }
        #expect(try suggested("Columbia").first == "Colombia")
        #expect(try suggested("Phillipines").first == "Philippines")
        #expect(try suggested("Argentinia").first == "Argentina")
        #expect(try suggested("Kazakstan").first == "Kazakhstan")
        #expect(try suggested("Bogata", .capital) == ["Bogotá"])
        #expect(try suggested("Bogata", .any).first == "Bogotá")
        #expect(try suggested("united kingdim").first == "United Kingdom")
        // One value per country: its name, not its aliases too.
        #expect(try suggested("Columbia").filter { $0.contains("Colombia") } == ["Colombia"])
        // An alias that matched when the name did not.
        #expect(try suggested("ivory coats") == ["Ivory Coast"])
        #expect(try suggested("zzzzzzzz").isEmpty)
        #expect(try suggested("").isEmpty)
        #expect(try suggested("a").count <= CatalogueSearch.suggestionLimit)
        #expect(try catalogue.read { db in try CatalogueSearch.suggestions(for: "Columbia", scope: .name, in: db, limit: 0) }.isEmpty)
    }

    @Test("Products: a transposition and a substitution, within a type", arguments: EngineUnderTest.all)
    func products(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        func suggested(_ text: String, _ scope: ProductScope = .all) throws -> [String] {
            try catalogue.read { db in try CatalogueSearch.suggestions(for: text, scope: scope, in: db) }
        }
        #expect(try suggested("iphnoe").first == "iPhone")
        #expect(try suggested("ipod toush") == ["iPod touch"])
        #expect(try suggested("ipod tuch").isEmpty, "a word of 4 characters may have no typo")
        #expect(try suggested("iphnoe", .type("nonexistent type")).isEmpty)
    }

    @Test("Products: every typed word counts, however many names share the first", arguments: EngineUnderTest.all)
    func productsMatchEveryWord(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            // More names with "amber" than the candidates read, all before the one meant.
            for number in 1...(CatalogueSearch.productCandidateLimit + 50) {
                try db.insert(Product(name: "Amber \(number)", type: "decor"))
            }
            try db.insert(Product(name: "Amber lamp", type: "lighting"))
            try db.insert(Product(name: "Amber lantern", type: "lighting"))
        }
        func suggested(_ text: String, _ scope: ProductScope = .all) throws -> [String] {
            try catalogue.read { db in try CatalogueSearch.suggestions(for: text, scope: scope, in: db) }
        }
        #expect(try suggested("amberr lampp") == ["Amber lamp"])
        #expect(try suggested("ambre lanter") == ["Amber lantern"])
        #expect(try suggested("amberr lampp", .type("decor")).isEmpty)
        #expect(try suggested("amberr").count == CatalogueSearch.suggestionLimit)
        #expect(try catalogue.read { db in try CatalogueSearch.suggestions(for: "amberr lampp", scope: ProductScope.all, in: db, limit: 0) }.isEmpty)
    }

    @Test("Typo distance: insertions, deletions, substitutions and transpositions count one each")
    func distance() {
        #expect(TypoDistance.distance("columbia", "colombia", atMost: 1) == 1)
        #expect(TypoDistance.distance("phillipines", "philippines", atMost: 2) == 2)
        #expect(TypoDistance.distance("iphnoe", "iphone", atMost: 1) == 1)
        #expect(TypoDistance.distance("kazakstan", "kazakhstan", atMost: 2) == 1)
        #expect(TypoDistance.distance("bogata", "bogota", atMost: 1) == 1)
        #expect(TypoDistance.distance("abc", "abc", atMost: 0) == 0)
        #expect(TypoDistance.distance("abcdef", "badcfe", atMost: 2) == nil)
        #expect(TypoDistance.distance("abcdef", "badcfe", atMost: 3) == 3)
        #expect(TypoDistance.distance("", "abc", atMost: 3) == 3)
        #expect(TypoDistance.distance("paris", "bogota", atMost: 2) == nil)
        #expect([1, 4, 5, 8, 9, 20].map(TypoDistance.allowedTypos(forLength:)) == [0, 0, 1, 1, 2, 2])
    }
}
