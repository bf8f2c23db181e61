#if Server
import CatalogueKit
import Testing
@testable import CatalogueServer

/// Highlighting prepared once per answer gives SearchHighlighter's segments.
@Suite("Highlight query")
struct HighlightQueryTests {
    static let values: [String] = {
        let catalogue = try! Catalogue(path: ":memory:")
        let countries = try! catalogue.fetch(FetchRequest<Country>())
        let products = try! catalogue.fetch(FetchRequest<Product>())
        return countries.flatMap { [$0.name, $0.capital ?? ""] + $0.aliases } + products.map(\.name)
            + ["Straße", "STRASSE", "e\u{301}clair", "\u{301}lone mark", "Ǆemal", "ﬁne", "İstanbul", "Øresund", "1-800 Flowers", "C++ primer"]
    }()

    static let texts = ["b", "bo", "bog", "BOGOTA", "co", "cote", "côte d", "s", "stras", "strasse", "é", "e", "ec", "ﬁ", "fi", "i", "ist",
                        "ø", "o", "1-", "c++", "united ki", "  sa ", "a"]

    @Test("Prefix mode: the same segments as SearchHighlighter.prefix on the whole value")
    func prefix() {
        for text in Self.texts {
            let query = HighlightQuery(SearchQuery(text: text, mode: .prefix))
            for value in Self.values where !value.isEmpty {
                let expected = SearchHighlighter.segments(of: value, matching: text, mode: .prefix)
                let got = query.segments(of: value)
                if expected.contains(where: \.isMatch) {
                    #expect(got == HighlightQuery.merged(expected), "\(text) in \(value)")
                } else {
                    #expect(got == nil, "\(text) in \(value)")
                }
            }
        }
    }

    @Test("Words mode marks the typed part of each matched word; the others mark what SearchHighlighter marks")
    func otherModes() {
        let words = HighlightQuery(SearchQuery(text: "united ki", mode: .words))
        #expect(words.segments(of: "United Kingdom").map { SearchHighlighter.marked($0) } == "[United] [Ki]ngdom")
        #expect(HighlightQuery(SearchQuery(text: "gu", mode: .words)).segments(of: "Papua New Guinea").map { SearchHighlighter.marked($0) }
            == "Papua New [Gu]inea")
        #expect(HighlightQuery(SearchQuery(text: "lomb", mode: .contains)).segments(of: "Colombia").map { SearchHighlighter.marked($0) } == "Co[lomb]ia")
        #expect(HighlightQuery(SearchQuery(text: "ipod 2007", mode: .terms)).segments(of: "iPod touch").map { SearchHighlighter.marked($0) }
            == "[iPod] touch")
        #expect(HighlightQuery(SearchQuery(text: "", mode: .prefix)).segments(of: "Colombia") == nil)
        #expect(HighlightQuery(SearchQuery(text: "x", mode: .prefix)).segments(of: "") == nil)
    }
}
#endif
