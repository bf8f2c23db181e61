import CatalogueKit
import Foundation
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

    /// The words of `text` as the definition says, with Foundation's NFC and the general
    /// category of every scalar, without the fast paths for Latin and ASCII text.
    static func referenceWords(in text: String) -> [String] {
        let wordCategories: Set<Unicode.GeneralCategory> = [
            .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark, .privateUse,
        ]
        var words: [String] = []
        var current = ""
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if wordCategories.contains(scalar.properties.generalCategory) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    @Test("Words are split as Foundation's NFC and Unicode's categories say, with or without the fast paths")
    func wordsMatchTheDefinition() {
        // ASCII, Latin-1 (with ª ² µ º ¼ × ÷), Latin Extended and IPA up to U+02FF (with the
        // modifier letters ʰ ˆ), then what takes the full path: combining accents, Greek, CJK.
        let pool: [Unicode.Scalar] = Array("aZ09 -'_.,:*\"()".unicodeScalars)
            + [0xAA, 0xB2, 0xB5, 0xBA, 0xBC, 0xC0, 0xD7, 0xE9, 0xF7, 0xFF, 0x142, 0x1C5, 0x250, 0x2B0, 0x2C6, 0x2FF]
                .compactMap(Unicode.Scalar.init(_:))
            + [0x301, 0x327, 0x3B1, 0x6F22, 0x1F600].compactMap(Unicode.Scalar.init(_:))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.append(pool.randomElement(using: &generator)!)
            }
            let string = String(text)
            // Scalar by scalar: Swift's == would take a decomposed word for its composed twin.
            #expect(FullTextPattern.words(in: string).map { Array($0.unicodeScalars) }
                == Self.referenceWords(in: string).map { Array($0.unicodeScalars) },
                "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(FullTextPattern.words(in: "Jalapeño frame-lite 1") == ["Jalapeño", "frame", "lite", "1"])
        #expect(FullTextPattern.words(in: "e\u{301}clair ½ x²").map { Array($0.unicodeScalars) }
            == [Array("\u{E9}clair".unicodeScalars), ["\u{BD}"], ["x", "\u{B2}"]])
    }

    @Test("No word, no pattern", arguments: ["", "   ", "*", "()", "\"\"", "- : ^", "\u{0}\u{1}"])
    func noPattern(text: String) {
        #expect(FullTextPattern(matchingAllPrefixesIn: text) == nil)
    }

    /// The vocabulary of a small index, read by first letter as the engines read theirs.
    static func vocabulary(_ terms: [String]) -> (String) -> [String] {
        { first in terms.filter { $0.hasPrefix(first) } }
    }

    @Test("Looking typos up notes which words begin an indexed word; the exact pattern forgets it")
    func beginsIndexedWord() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "Montral ca montr", toleratingTypos: true))
        #expect(pattern.beginsIndexedWord == nil)
        let resolved = pattern.resolvingTypos(vocabulary: Self.vocabulary(["canada", "montreal", "montrose"]))
        #expect(resolved.typoAlternatives == [["montreal"], [], []])
        // "ca" is too short for typos: its vocabulary is not read, and it counts as beginning one.
        #expect(resolved.beginsIndexedWord == [false, true, true])
        #expect(resolved.exact.beginsIndexedWord == nil)
        #expect(FullTextPattern(matchingAllPrefixesIn: "montral")!.resolvingTypos(vocabulary: Self.vocabulary(["montreal"]))
            .beginsIndexedWord == nil, "a pattern that does not tolerate typos reads no vocabulary")
    }

    @Test("Typos are looked for in the first 10 distinct words, each once, each letter's vocabulary read once; later words match exactly")
    func typoWordLimit() throws {
        // Twelve distinct words with a typo each ("zebaar" for "zebara"), the first repeated.
        let letters = (0..<12).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        let meant = letters.map { "zeb" + $0 + "ra" }
        let typed = letters.map { "zeb" + $0 + "ar" }
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: ([typed[0]] + typed).joined(separator: " "), toleratingTypos: true))
        var reads: [String] = []
        let resolved = pattern.resolvingTypos { first in
            reads.append(first)
            return meant
        }
        #expect(reads == ["z"])
        let alternatives = try #require(resolved.typoAlternatives)
        #expect(alternatives.count == 13)
        #expect(alternatives[0] == [meant[0]] && alternatives[1] == [meant[0]])
        #expect(alternatives[2...10].map { $0 } == meant[1...9].map { [$0] })
        #expect(alternatives[11...12].allSatisfy { $0.isEmpty }, "past the tenth distinct word: exact")
        #expect(resolved.beginsIndexedWord?[11...12].allSatisfy { $0 } == true)
        #expect(FullTextPattern.typoWordLimit == 10)
    }

    @Test("SQLite checks a pattern row by row only when each word's prefix is one term and its typos are few")
    func checksCheaplyPerRow() throws {
        func resolved(_ text: String, _ terms: [String]) throws -> FullTextPattern {
            try #require(FullTextPattern(matchingAllPrefixesIn: text, toleratingTypos: true))
                .resolvingTypos(vocabulary: Self.vocabulary(terms))
        }
        // Short prefixes have an index of their own; longer ones merge every term they begin.
        #expect(SQLiteDialect.checksCheaplyPerRow(try #require(FullTextPattern(matchingAllPrefixesIn: "la c"))))
        #expect(!SQLiteDialect.checksCheaplyPerRow(try #require(FullTextPattern(matchingAllPrefixesIn: "lamp"))))
        // A typo begins no indexed word: its prefix merges nothing.
        #expect(SQLiteDialect.checksCheaplyPerRow(try resolved("montral", ["montreal", "montrose"])))
        #expect(SQLiteDialect.checksCheaplyPerRow(try resolved("montral ca", ["canada", "montreal"])))
        #expect(!SQLiteDialect.checksCheaplyPerRow(try resolved("montr", ["montreal", "montrose"])))
        #expect(!SQLiteDialect.checksCheaplyPerRow(try resolved("montral lamp", ["lamp", "montreal"])))
        // Each alternative is a term to open for every row: more than the limit, and the matches are collected.
        let near = "abcdfghijkmnopqrstuvwxyz".prefix(SQLiteDialect.checkedTypoAlternativeLimit + 1).map { "kett\($0)l" }
        let many = try resolved("kettel", near)
        #expect(many.typoAlternatives?.first?.count == SQLiteDialect.checkedTypoAlternativeLimit + 1)
        #expect(!SQLiteDialect.checksCheaplyPerRow(many))
        #expect(SQLiteDialect.checksCheaplyPerRow(try resolved("kettel", Array(near.prefix(SQLiteDialect.checkedTypoAlternativeLimit)))))
    }
}
