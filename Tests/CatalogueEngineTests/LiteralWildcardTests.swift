import CatalogueKit
import Testing

/// A wildcard character in literal text (`%`, `_` and `\` for PostgreSQL's LIKE; `*`, `?` and `[`
/// for SQLite's GLOB) is escaped scalar by scalar: followed by a combining mark or a joiner it
/// forms one Swift Character with it, and was written unescaped, so the engine read a wildcard.
@Suite("Wildcard characters in literal text")
struct LiteralWildcardTests {
    static let names = ["50%\u{200D}off", "50x\u{200D}off", "a*\u{301}b", "ax\u{301}b", "q_\u{301}", "qx\u{301}", "m[\u{301}]n", "m\u{301}n"]

    @Test("A wildcard character followed by a combining mark or a joiner matches only itself", arguments: EngineUnderTest.all)
    func wildcardsBeforeCombiningScalars(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            for name in Self.names { try db.insert(Product(name: name, type: "t")) }
        }
        func found(_ predicate: FetchPredicate) throws -> [String] {
            try catalogue.records(FetchRequest<Product>(predicate: predicate, sortDescriptors: [FetchSortDescriptor("id")])).map(\.name)
        }
        let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(try found(.contains("name", "50%\u{200D}")) == ["50%\u{200D}off"])
        #expect(try found(.contains("name", "50%\u{200D}", options: cd)) == ["50%\u{200D}off"])
        #expect(try found(.endsWith("name", "_\u{301}")) == ["q_\u{301}"])
        #expect(try found(.like("name", "a\\*\u{301}b")) == ["a*\u{301}b"])
        #expect(try found(.like("name", "m[\u{301}]n")) == ["m[\u{301}]n"])
        #expect(try found(.like("name", "50%\u{200D}*")) == ["50%\u{200D}off"])
        #expect(try found(.like("name", "*\u{301}b")) == ["a*\u{301}b", "ax\u{301}b"])
    }
}
