@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// `Folding.fold`: what `[c]`, `[d]` and `[cd]` mean, and the stored `*_key` form.
@Suite("Folding")
struct FoldingTests {
    @Test("[cd] folds case and drops diacritics", arguments: [
        ("Côte", "cote"), ("Côte d'Ivoire", "cote d'ivoire"), ("Straße", "strasse"), ("ÅLAND", "aland"),
        ("Bogotá", "bogota"), ("SÃO TOMÉ", "sao tome"), ("Türkiye", "turkiye"), ("Curaçao", "curacao"),
        ("Crème Brûlée", "creme brulee"), ("Piñata", "pinata"), ("plain ascii", "plain ascii"), ("", ""),
    ])
    func caseAndDiacritics(text: String, folded: String) {
        #expect(Folding.fold(text) == folded)
        #expect(Folding.fold(text, options: .caseAndDiacriticInsensitive) == folded)
        // Byte-exact: the result is what SQLite compares.
        #expect(Array(Folding.fold(text).utf8) == Array(folded.utf8))
    }

    @Test("Letters that do not decompose stay, lower-cased (ø, ł, œ)", arguments: [
        ("Øresund", "øresund"), ("ŁÓDŹ", "łodz"), ("Œuvre", "œuvre"), ("smørrebrød", "smørrebrød"), ("Łł", "łł"),
    ])
    func nonDecomposableLetters(text: String, folded: String) {
        #expect(Folding.fold(text) == folded)
        #expect(Array(Folding.fold(text).utf8) == Array(folded.utf8))
    }

    @Test("Decomposed and precomposed input fold to the same bytes")
    func decomposedInput() {
        let decomposed = "Co\u{0302}te"
        let precomposed = "C\u{00F4}te"
        #expect(Array(Folding.fold(decomposed).utf8) == Array("cote".utf8))
        #expect(Array(Folding.fold(precomposed).utf8) == Array("cote".utf8))
        // `[c]` keeps the accent; Swift's `==` compares canonically.
        #expect(Folding.fold("E\u{0301}", options: .caseInsensitive) == "\u{00E9}")
    }

    @Test("[c] only folds case and keeps diacritics")
    func caseOnly() {
        #expect(Folding.fold("ÅLAND", options: .caseInsensitive) == "åland")
        #expect(Folding.fold("Côte", options: .caseInsensitive) == "côte")
        #expect(Folding.fold("BOGOTÁ", options: .caseInsensitive) == "bogotá")
        #expect(Folding.fold("ABC xyz", options: .caseInsensitive) == "abc xyz")
    }

    @Test("[d] only drops diacritics and keeps case")
    func diacriticsOnly() {
        #expect(Folding.fold("ÅLAND", options: .diacriticInsensitive) == "ALAND")
        #expect(Folding.fold("Côte", options: .diacriticInsensitive) == "Cote")
        #expect(Folding.fold("Bogotá", options: .diacriticInsensitive) == "Bogota")
        #expect(Folding.fold("ABC xyz", options: .diacriticInsensitive) == "ABC xyz")
    }

    @Test("No options: the text as it is")
    func noOptions() {
        for text in ["Côte", "ÅLAND", "Straße", "abc"] {
            #expect(Array(Folding.fold(text, options: []).utf8) == Array(text.utf8))
        }
    }

    @Test("The ASCII fast path agrees with Foundation's folding on random ASCII strings")
    func asciiFastPathMatchesFoundation() {
        var generator = SplitMix64(seed: 0xA5C1_1F01_D000_0001)
        let cases: [(ComparisonOptions, String.CompareOptions)] = [
            (.caseInsensitive, [.caseInsensitive]),
            (.diacriticInsensitive, [.diacriticInsensitive]),
            (.caseAndDiacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]),
        ]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &generator) }
            let text = String(decoding: bytes, as: UTF8.self)
            for (options, foundationOptions) in cases {
                let ours = Folding.fold(text, options: options)
                let theirs = text.folding(options: foundationOptions, locale: nil)
                #expect(Array(ours.utf8) == Array(theirs.utf8), "\(options.formatModifier) \(bytes) (seed 0xA5C11F01D0000001)")
            }
        }
    }

    @Test("Non-ASCII text agrees with Foundation's folding")
    func nonASCIIMatchesFoundation() {
        for text in ["Ærø", "İstanbul", "ﬁne", "ǅemal", "Ελληνική", "中华", "🇨🇮 Côte"] {
            #expect(Folding.fold(text) == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        }
    }

    @Test("[d] and [cd] fold typographic apostrophes and quotation marks to ASCII; [c] alone does not")
    func quotationMarks() {
        #expect(Folding.fold("Côte d’Ivoire") == "cote d'ivoire")
        #expect(Folding.fold("O‘zbekiston") == "o'zbekiston")
        #expect(Folding.fold("‚Deluxe‛ ʼokina") == "'deluxe' 'okina")
        #expect(Folding.fold("„Deluxe“ ‟27”") == "\"deluxe\" \"27\"")
        #expect(Folding.fold("Côte d’Ivoire", options: .diacriticInsensitive) == "Cote d'Ivoire")
        #expect(Folding.fold("Côte d’Ivoire", options: .caseInsensitive) == "côte d’ivoire")
        // Each mark is one scalar folded to one, whatever surrounds it.
        for (mark, ascii) in Folding.quoteMarks {
            #expect(Folding.fold("a\(mark)b") == "a\(ascii)b")
            #expect(Folding.fold("\(mark)\u{301}Ü") == "\(ascii)u")
        }
        // Primes (27″) and the grave and acute accents stay what they are.
        #expect(Folding.fold("27″ ′ ` ´") == "27″ ′ ` ´")
    }

    @Test("Migration 10 folds the keys stored before with the same marks as the folding")
    func quoteMigrationMatchesFolding() throws {
        let migration = try #require(SQLiteResources.migrations.first { $0.identifier == "0010_quote_folding" })
        let marks = Set(Folding.quoteMarks.keys.map(Character.init))
        for line in migration.sql.split(separator: "\n") where line.hasPrefix("WHERE ") {
            let inner = try #require(line.split(separator: "[").last?.split(separator: "]").first)
            #expect(Set(inner) == marks, "\(line)")
        }
        for (mark, ascii) in Folding.quoteMarks {
            let replacement = ascii == "'" ? "''''" : "'\"'"
            #expect(migration.sql.contains("'\(mark)', \(replacement))"), "\(mark)")
        }
    }

    @Test("A stored key is the [cd] fold of a text value and NULL otherwise")
    func keyForValue() {
        #expect(Folding.key(for: .text("Bogotá")) == .text("bogota"))
        #expect(Folding.key(for: .null) == .null)
        #expect(Folding.key(for: .integer(7)) == .null)
    }

    @Test("Options print as NSPredicate modifiers")
    func formatModifiers() {
        #expect(ComparisonOptions().formatModifier == "")
        #expect(ComparisonOptions.caseInsensitive.formatModifier == "[c]")
        #expect(ComparisonOptions.diacriticInsensitive.formatModifier == "[d]")
        #expect(ComparisonOptions.caseAndDiacriticInsensitive.formatModifier == "[cd]")
        #expect(ComparisonOptions.caseAndDiacriticInsensitive == [.caseInsensitive, .diacriticInsensitive])
    }
}
