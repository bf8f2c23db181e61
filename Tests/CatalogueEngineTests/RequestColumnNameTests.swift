import CatalogueKit
import Testing

/// A column a request names goes into its statement as a name, so only the schema's names are
/// taken: anything else throws ``FetchRequestError/unknownColumn(_:table:known:)`` before a
/// statement runs, on every engine. (Predicates and sort descriptors: the predicate tests; the
/// sectioned results controller's column: its own tests.)
@Suite("Column names a request gives")
struct RequestColumnNameTests {
    @Test("Grouped counts take a column a predicate may name, and refuse other text", arguments: EngineUnderTest.all)
    func groupedCounts(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let request = CatalogueSearch.products(matching: "ip")
        let products = try catalogue.records(request)
        #expect(!products.isEmpty)
        #expect(try catalogue.fetchCounts(request, groupedBy: "type") == Dictionary(grouping: products, by: \.type).mapValues(\.count))
        #expect(try catalogue.fetchCounts(request, groupedBy: "name").values.reduce(0, +) == products.count)
        // Spliced into the statement, the first would read another table: every country code
        // came back as a "type" (SQLite, before the check).
        let hostile = [
            "type_key AS grouped_value FROM product UNION ALL SELECT (SELECT group_concat(code) FROM country)",
            "colour", "", "product.type",
        ]
        for column in hostile {
            #expect(throws: FetchRequestError.unknownColumn(column, table: "product", known: Product.schema.selection)) {
                try catalogue.fetchCounts(request, groupedBy: column)
            }
        }
    }

    @Test("A full-text pattern searches the index's columns only", arguments: EngineUnderTest.all)
    func fullTextColumns(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        func names(_ columns: [String]) throws -> [String] {
            let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "bog", columns: columns))
            return try catalogue.records(FetchRequest<Country>(predicate: .fullText(pattern), sortDescriptors: FetchSortDescriptor.byName))
                .map(\.name)
        }
        #expect(try names(["capital"]) == ["Colombia"])
        #expect(try names(["name"]).isEmpty)
        // In an FTS5 column filter, the first would have turned the query into "zzz" OR any
        // capital starting with "bog".
        for column in ["name} : \"zzz\" OR {capital", "population"] {
            #expect(throws: FetchRequestError.unknownColumn(column, table: "country", known: Country.schema.fullTextColumns)) {
                try names(["name", column])
            }
        }
    }
}
