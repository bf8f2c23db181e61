import CatalogueCore
import Testing

/// `ClosestName`: the name a mistyped one most likely meant, for "did you mean".
@Suite("Closest name")
struct ClosestNameTests {
    static let commands = ["search", "browse", "index", "import", "export", "show", "interactive", "reindex", "serve"]
    static let scopes = ["name", "capital", "any"]

    @Test("A typo of each kind finds the name, as the list spells it", arguments: [
        ("serch", "search"),   // a deletion
        ("seearch", "search"), // an insertion
        ("sezrch", "search"),  // a substitution
        ("brwose", "browse"),  // a transposition
        ("improt", "import"),
        ("exprot", "export"),
        ("SEARCH", "search"),  // case alone
        ("Séarch", "search"),  // a diacritic alone
        ("interative", "interactive"),
        ("interactiev", "interactive"),
        ("inter", "interactive"), // the only name starting so
        ("reidnex", "reindex"),
    ])
    func commandTypos(given: String, expected: String) {
        #expect(ClosestName.closest(to: given, among: Self.commands) == expected)
    }

    @Test("Scopes and product types: short names get one typo, the list's spelling comes back")
    func scopes() {
        #expect(ClosestName.closest(to: "captial", among: Self.scopes) == "capital")
        #expect(ClosestName.closest(to: "nme", among: Self.scopes) == "name")
        #expect(ClosestName.closest(to: "cap", among: Self.scopes) == "capital")
        #expect(ClosestName.closest(to: "phnoe", among: ["all", "Phone", "device"]) == "Phone")
        #expect(ClosestName.closest(to: "devce", among: ["all", "desktop", "device"]) == "device")
    }

    @Test("Nothing close enough: nil", arguments: [
        "planet",  // far from every scope
        "x",       // one letter: no typo allowed
        "ay",      // two letters: no typo allowed, and no scope starts so
        "",        // nothing given
        "capitals of the world",
    ])
    func nothingClose(given: String) {
        #expect(ClosestName.closest(to: given, among: Self.scopes) == nil)
    }

    @Test("Two names starting with what was given, and none within a typo: no guess")
    func ambiguousStart() {
        // "se" starts search and serve; two letters allow no typo.
        #expect(ClosestName.closest(to: "se", among: Self.commands) == nil)
        #expect(ClosestName.closest(to: "in", among: Self.commands) == nil)  // index, import, interactive
    }

    @Test("The nearest wins over a farther one earlier in the list; on a tie, the earlier")
    func nearestFirst() {
        // "shaw": one substitution from "show".
        #expect(ClosestName.closest(to: "shaw", among: Self.commands) == "show")
        // "sarve" is one from serve and two from search: serve, though search comes first.
        #expect(ClosestName.closest(to: "sarve", among: Self.commands) == "serve")
        // "bat" is one typo from both "bar" and "cat": the first of the list.
        #expect(ClosestName.closest(to: "bat", among: ["cat", "bar"]) == "cat")
        #expect(ClosestName.closest(to: "bat", among: ["bar", "cat"]) == "bar")
        // An exact name (after folding) beats a one-typo name before it.
        #expect(ClosestName.closest(to: "Bar", among: ["bat", "bar"]) == "bar")
    }
}
