import CatalogueKit
import Testing

/// FTS5 patterns built from user text: every word a quoted prefix phrase, no syntax.
@Suite("Full-text patterns")
struct FullTextPatternTests {
    @Test("Each word becomes a quoted prefix phrase")
    func phrases() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "united ki"))
        #expect(pattern.fts5Pattern == "\"united\"* \"ki\"*")
        #expect(pattern.words == ["united", "ki"])
    }

    @Test("Columns restrict the match")
    func columns() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "sao tome", columns: ["name", "aliases"]))
        #expect(pattern.fts5Pattern == "{name aliases} : (\"sao\"* \"tome\"*)")
        #expect(FullTextPattern(matchingAllPrefixesIn: "x", columns: [])?.fts5Pattern == "\"x\"*")
    }

    @Test("Syntax characters split words and never reach the pattern", arguments: [
        ("C++", ["C"]), ("col:val", ["col", "val"]), ("a OR b", ["a", "OR", "b"]), ("\"unterminated", ["unterminated"]),
        ("NEAR(a, b)", ["NEAR", "a", "b"]), ("x*y^z", ["x", "y", "z"]), ("it's", ["it", "s"]), ("Côte d'Ivoire", ["Côte", "d", "Ivoire"]),
    ])
    func words(text: String, expected: [String]) throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: text))
        #expect(pattern.words == expected)
        #expect(pattern.fts5Pattern == expected.map { "\"\($0)\"*" }.joined(separator: " "))
    }

    @Test("Decomposed accents stay in their word (NFC first)")
    func decomposed() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "Bogota\u{301} Co\u{302}te"))
        #expect(pattern.words == ["Bogotá", "Côte"])
    }

    @Test("No word, no pattern", arguments: ["", "   ", "*", "()", "\"\"", "- : ^", "\u{0}\u{1}"])
    func noPattern(text: String) {
        #expect(FullTextPattern(matchingAllPrefixesIn: text) == nil)
    }
}
