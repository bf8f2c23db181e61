import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

@Suite("Highlighting matched words")
struct HighlightTests {
    @Test("Words search highlights the matched words of a column")
    func highlightsMatchedWords() throws {
        let catalogue = try seededCatalogue()
        let request = CatalogueSearch.countries(matching: "united ki", mode: .words)
        let hits = try catalogue.read { db in try db.fetchHighlighted(request, column: "name", open: "<", close: ">") }
        #expect(hits.map(\.record.name) == ["United Kingdom"])
        #expect(hits.first?.highlighted == "<United> <Kingdom>")
        let capitals = try catalogue.read { db in
            try db.fetchHighlighted(CatalogueSearch.countries(matching: "bogo", scope: .capital, mode: .words), column: "capital")
        }
        #expect(capitals.map(\.highlighted) == ["[Bogotá]"])
        let products = try catalogue.read { db in
            try db.fetchHighlighted(CatalogueSearch.products(matching: "ipa mi", mode: .words), column: "name")
        }
        #expect(products.map(\.highlighted) == ["[iPad] [mini]"])
    }

    @Test("Highlighting needs a full-text column and a full-text predicate")
    func highlightErrors() throws {
        let catalogue = try seededCatalogue()
        #expect(throws: FetchRequestError.self) {
            try catalogue.read { db in try db.fetchHighlighted(CatalogueSearch.countries(matching: "fr", mode: .words), column: "continent") }
        }
        #expect(throws: FetchRequestError.relevanceWithoutFullText) {
            try catalogue.read { db in try db.fetchHighlighted(CatalogueSearch.countries(matching: "fr"), column: "name") }
        }
    }
}
