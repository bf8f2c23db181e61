import CatalogueKit
import Testing

/// `MatchMode.fallbacks(for:)`: the modes a search that found nothing tries next.
@Suite("Match mode fallbacks")
struct MatchModeFallbacksTests {
    @Test("After a prefix, words then contains; after words, contains; none after the others", arguments: [
        (MatchMode.prefix, "salvador", [MatchMode.words, .contains]),
        (.words, "salvador", [.contains]),
        (.contains, "salvador", []),
        (.terms, "salvador", []),
        (.fuzzy, "salvador", []),
    ])
    func order(mode: MatchMode, text: String, expected: [MatchMode]) {
        #expect(mode.fallbacks(for: text) == expected)
    }

    @Test("Contains only from 3 characters, folded and trimmed: what its trigram index answers")
    func containsFromThreeCharacters() {
        #expect(MatchMode.prefix.fallbacks(for: "sa") == [.words])
        #expect(MatchMode.words.fallbacks(for: "sa").isEmpty)
        #expect(MatchMode.prefix.fallbacks(for: "  sa  ") == [.words])
        #expect(MatchMode.prefix.fallbacks(for: "sal") == [.words, .contains])
        // Folded: é is one character, as the index sees it; ß folds to two.
        #expect(MatchMode.prefix.fallbacks(for: "ré") == [.words])
        #expect(MatchMode.prefix.fallbacks(for: "aß") == [.words, .contains])
    }

    @Test("Each fallback finds what the mode before it missed, on the seed: salvador, lvador")
    func findsOnTheSeed() throws {
        let catalogue = try Catalogue(path: ":memory:")
        func first(_ mode: MatchMode, _ text: String) throws -> MatchMode? {
            try catalogue.read { db in
                #expect(try db.fetchCount(CatalogueSearch.countries(matching: text, mode: mode)) == 0)
                return try mode.fallbacks(for: text).first { try db.fetchCount(CatalogueSearch.countries(matching: text, mode: $0)) > 0 }
            }
        }
        #expect(try first(.prefix, "salvador") == .words)
        #expect(try first(.prefix, "lvador") == .contains)
        #expect(try first(.words, "lvador") == .contains)
        #expect(try first(.prefix, "phillipines") == nil)
    }
}
