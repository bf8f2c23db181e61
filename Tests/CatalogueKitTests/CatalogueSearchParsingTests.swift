import CatalogueKit
import Testing

/// How search text and scopes are read, before any engine is asked. (The searches themselves,
/// on SQLite and PostgreSQL, are in CatalogueEngineTests/CatalogueSearchTests.)
@Suite("Catalogue search parsing")
struct CatalogueSearchParsingTests {
    @Test("Text is trimmed; terms split on whitespace; scopes parse")
    func parsing() {
        #expect(CatalogueSearch.normalizedText("  bog \n") == "bog")
        #expect(CatalogueSearch.terms(in: " ipod\t2007  x ") == ["ipod", "2007", "x"])
        #expect(ProductScope(parsing: "ALL") == .all)
        #expect(ProductScope(parsing: "Device") == .type("Device"))
        #expect(MatchMode(rawValue: "words") == .words)
        #expect(CatalogueSearch.countries(matching: " bo ") == CatalogueSearch.countries(matching: "bo"))
    }
}
