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

    @Test("firstFallback: the first fallback that finds what the mode missed, with its count, on the seed")
    func firstFallbackOnTheSeed() throws {
        let catalogue = try Catalogue(path: ":memory:")
        func first(_ mode: MatchMode, _ text: String) throws -> (mode: MatchMode, count: Int)? {
            try catalogue.read { db in
                #expect(try db.fetchCount(CatalogueSearch.countries(matching: text, mode: mode)) == 0)
                return try mode.firstFallback(for: text) { try db.fetchCount(CatalogueSearch.countries(matching: text, mode: $0)) }
            }
        }
        #expect(try first(.prefix, "salvador").map { [$0.mode.rawValue, "\($0.count)"] } == ["words", "1"])
        #expect(try first(.prefix, "lvador")?.mode == .contains)
        #expect(try first(.words, "lvador")?.mode == .contains)
        #expect(try first(.prefix, "phillipines") == nil)
        // "ds" is inside 22 names, but contains is not tried for 2 characters.
        #expect(try first(.prefix, "ds") == nil)
    }

    @Test("firstFallback asks for the counts in order and stops at the first above 0")
    func firstFallbackStops() {
        var asked: [MatchMode] = []
        let found = MatchMode.prefix.firstFallback(for: "salvador") { mode in
            asked.append(mode)
            return mode == .words ? 3 : 0
        }
        #expect(found?.mode == .words && found?.count == 3)
        #expect(asked == [.words])
        asked = []
        #expect(MatchMode.prefix.firstFallback(for: "salvador") { asked.append($0); return 0 } == nil)
        #expect(asked == [.words, .contains])
    }
}
