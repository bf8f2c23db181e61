import CatalogueKit
import Testing

/// A MATCHES pattern answers the same on every engine, or PostgreSQL refuses it: ICU (SQLite)
/// and PostgreSQL's regular expressions read some constructs differently.
@Suite("MATCHES across engines")
struct MatchesPortabilityTests {
    @Test("The same rows on every engine: . over a line break, [cd] on the folded key", arguments: EngineUnderTest.all)
    func sameRows(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            for name in ["a\nb", "axb", "Straße", "Zürich 1"] { try db.insert(Product(name: name, type: "t")) }
        }
        func names(_ predicate: FetchPredicate) throws -> [String] {
            try catalogue.records(FetchRequest<Product>(predicate: predicate)).map(\.name)
        }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        #expect(try names(.matches("name", "a.b")) == ["a\nb", "axb"])
        #expect(try names(.matches("name", "stra.e", options: cd)).isEmpty, "the key is strasse")
        #expect(try names(.matches("name", "STRASSE", options: cd)) == ["Straße"])
        #expect(try names(.matches("name", "zurich [0-9]", options: cd)) == ["Zürich 1"])
    }

    @Test("What the engines read differently answers on SQLite and is refused on PostgreSQL", arguments: EngineUnderTest.all)
    func refusedWhereDifferent(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in try db.insert(Product(name: "Zürich 1", type: "t")) }
        let patterns = [("\\w+ 1", 1), ("Z[[:alpha:]]+ 1", 1), ("[A-Z&&[^X]]ürich 1", 1), ("Z.rich\\s1", 1), ("[:upper:]ürich 1", 1)]
        for (pattern, sqliteRows) in patterns {
            let request = FetchRequest<Product>(predicate: .matches("name", pattern))
            switch engine {
            case .sqlite:
                #expect(try catalogue.records(request).count == sqliteRows, "\(pattern)")
            default:
                #expect(throws: FetchRequestError.self, "\(pattern)") { try catalogue.records(request) }
            }
        }
        // Brackets of characters and ranges are common to both.
        #expect(try catalogue.records(FetchRequest<Product>(predicate: .matches("name", "[A-Z][^0-9]+ [0-9]"))).count == 1)
    }
}
