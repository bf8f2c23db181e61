import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// Randomized: prefix, contains, words and terms searches return exactly what a plain Swift
/// model over the folded names returns (compared byte-wise, as SQLite compares text). Names and
/// search text mix letters and diacritics with the characters SQL and FTS5 treat as syntax
/// (`%`, `_`, `\`, quotes, `*`, `^`, `:`, `-`, parentheses, `OR`, `NEAR`…). Each run draws a new
/// seed (printed with every failure); `CATALOGUE_TEST_SEED` replays one.
@Suite("Search properties")
struct SearchPropertyTests {
    /// Characters FTS5 or SQL would read as syntax, and operator words.
    static let syntax = ["%", "_", "\\", "'", "\"", "*", "^", ":", "-", "(", ")", "{", "}", "+", " OR ", " AND ", " NOT ", "NEAR", " NEAR(", ";", "--", "/*"]

    /// Letters, digits, spaces and diacritics, precomposed and decomposed ("e" + U+0301), and
    /// syntax.
    static let alphabet: [String] = {
        let ascii = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".map(String.init)
        let extra = ["é", "È", "ü", "Å", "ç", "ñ", "ß", "ø", "œ", "e\u{0301}", "Ø", "Œ", "ç", "É"]
        return ascii + [" ", " ", " "] + extra + extra + syntax
    }()

    /// For words mode: letters that FTS5's unicode61 tokenizer (remove_diacritics 2) folds as
    /// `Folding.fold` does, and syntax, which separates words for both.
    static let wordsAlphabet: [String] = {
        let ascii = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".map(String.init)
        return ascii + [" ", " ", " "] + ["é", "È", "ü", "Å", "ç", "ñ", "É"] + syntax
    }()

    /// The seed: `CATALOGUE_TEST_SEED` when set (to replay a failure), else a new one each run.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["CATALOGUE_TEST_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)

    static func randomText(length: ClosedRange<Int>, from alphabet: [String] = alphabet, using generator: inout SplitMix64) -> String {
        let count = Int.random(in: length, using: &generator)
        return (0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    /// A catalogue holding only ~300 random products, and the products as inserted.
    static func makeCatalogue(from alphabet: [String] = alphabet, using generator: inout SplitMix64) throws -> (Catalogue, [Product]) {
        let catalogue = try emptyCatalogue()
        var names: Set<String> = []
        while names.count < 300 {
            let name = randomText(length: 1...14, from: alphabet, using: &generator)
            guard name.contains(where: { !$0.isWhitespace }) else { continue }
            names.insert(name)
        }
        // Sorted, so the insertion order (and the ids) depend only on the seed.
        let ordered = names.sorted { Bytes.less($0, $1) }
        let products = try catalogue.write { db in
            try ordered.map { try db.insert(Product(name: $0, type: "random")) }
        }
        return (catalogue, products)
    }

    /// ~200 needles: pieces of names (cut between characters or between scalars, which can
    /// split "e" from its accent) and random text.
    static func needles(from products: [Product], alphabet: [String] = alphabet, using generator: inout SplitMix64) -> [String] {
        (0..<200).map { index in
            let name = products.randomElement(using: &generator)!.name
            switch index % 4 {
            case 0:
                return String(name.prefix(Int.random(in: 0...name.count, using: &generator)))
            case 1:
                let scalars = Array(name.unicodeScalars)
                let cut = Int.random(in: 0...scalars.count, using: &generator)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[..<cut])
                return String(view)
            case 2:
                let characters = Array(name)
                let start = Int.random(in: 0..<characters.count, using: &generator)
                let end = Int.random(in: start...characters.count, using: &generator)
                return String(characters[start..<end])
            default:
                return randomText(length: 0...3, from: alphabet, using: &generator)
            }
        }
    }

    func ids(_ catalogue: Catalogue, _ text: String, _ mode: MatchMode) throws -> Set<Int64> {
        Set(try catalogue.read { db in try db.fetchIDs(CatalogueSearch.products(matching: text, mode: mode)) })
    }

    @Test("prefix results equal a Swift filter on folded UTF-8 prefixes")
    func prefixMatchesFilter() throws {
        var generator = SplitMix64(seed: Self.seed)
        let (catalogue, products) = try Self.makeCatalogue(using: &generator)
        #expect(products.count == 300, "seed \(Self.seed)")
        var nonTrivial = 0
        for text in Self.needles(from: products, using: &generator) {
            let key = Array(Folding.fold(CatalogueSearch.normalizedText(text)).utf8)
            let expected = Set(products.filter { Array(Folding.fold($0.name).utf8).starts(with: key) }.compactMap(\.id))
            let found = try ids(catalogue, text, .prefix)
            if !expected.isEmpty && expected.count < products.count { nonTrivial += 1 }
            #expect(found == expected,
                    "seed \(Self.seed): prefix \(String(reflecting: text)) (scalars \(text.unicodeScalars.map { String($0.value, radix: 16) })): missing \(expected.subtracting(found).count), extra \(found.subtracting(expected).count)")
        }
        #expect(nonTrivial > 50, "seed \(Self.seed): too few needles with some but not all matches")
    }

    @Test("contains results equal a Swift filter on folded UTF-8 substrings")
    func containsMatchesFilter() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0xC0A7_A125)
        let (catalogue, products) = try Self.makeCatalogue(using: &generator)
        var nonTrivial = 0
        for text in Self.needles(from: products, using: &generator) {
            let key = Folding.fold(CatalogueSearch.normalizedText(text))
            let expected = Set(products.filter { Bytes.contains(Folding.fold($0.name), key) }.compactMap(\.id))
            let found = try ids(catalogue, text, .contains)
            if !expected.isEmpty && expected.count < products.count { nonTrivial += 1 }
            #expect(found == expected,
                    "seed \(Self.seed): contains \(String(reflecting: text)): missing \(expected.subtracting(found).count), extra \(found.subtracting(expected).count)")
        }
        #expect(nonTrivial > 50, "seed \(Self.seed): too few needles with some but not all matches")
    }

    /// Words as FTS5's unicode61 tokenizer sees them in this alphabet: runs of letters and
    /// digits, folded.
    static func tokens(_ text: String) -> [String] {
        Folding.fold(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    @Test("words results equal a model: every typed word starts a word of the name")
    func wordsMatchModel() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0x5A0D_5EED)
        let (catalogue, products) = try Self.makeCatalogue(from: Self.wordsAlphabet, using: &generator)
        var nonTrivial = 0
        for text in Self.needles(from: products, alphabet: Self.wordsAlphabet, using: &generator) {
            let normalized = CatalogueSearch.normalizedText(text)
            let typed = FullTextPattern.words(in: normalized).flatMap(Self.tokens)
            // Empty text lists everything; text without a word finds nothing.
            let expected = normalized.isEmpty ? Set(products.compactMap(\.id)) : typed.isEmpty ? [] : Set(products.filter { product in
                let words = Self.tokens(product.name)
                return typed.allSatisfy { word in words.contains { $0.hasPrefix(word) } }
            }.compactMap(\.id))
            let found = try ids(catalogue, text, .words)
            if !expected.isEmpty && expected.count < products.count { nonTrivial += 1 }
            #expect(found == expected,
                    "seed \(Self.seed): words \(String(reflecting: text)): missing \(expected.subtracting(found).count), extra \(found.subtracting(expected).count)")
        }
        #expect(nonTrivial > 30, "seed \(Self.seed): too few needles with some but not all matches")
    }

    @Test("terms results equal a model: every term is contained in the name (the random products have no year or price)")
    func termsMatchModel() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0x7E2A_5EED)
        let (catalogue, products) = try Self.makeCatalogue(using: &generator)
        var nonTrivial = 0
        for text in Self.needles(from: products, using: &generator) {
            let terms = CatalogueSearch.terms(in: CatalogueSearch.normalizedText(text)).map { Folding.fold($0) }
            let expected = Set(products.filter { product in
                let name = Folding.fold(product.name)
                return terms.allSatisfy { Bytes.contains(name, $0) }
            }.compactMap(\.id))
            let found = try ids(catalogue, text, .terms)
            if !expected.isEmpty && expected.count < products.count { nonTrivial += 1 }
            #expect(found == expected,
                    "seed \(Self.seed): terms \(String(reflecting: text)): missing \(expected.subtracting(found).count), extra \(found.subtracting(expected).count)")
        }
        #expect(nonTrivial > 30, "seed \(Self.seed): too few needles with some but not all matches")
    }

    @Test("Results come in display order")
    func resultsInDisplayOrder() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0x0DE5)
        let (catalogue, products) = try Self.makeCatalogue(using: &generator)
        for text in Self.needles(from: products, using: &generator).prefix(40) {
            for mode in [MatchMode.prefix, .contains, .terms] {  // words: relevance first
                let found = try catalogue.records(CatalogueSearch.products(matching: text, mode: mode))
                #expect(found.map(\.id) == displayOrdered(found, name: \.name).map(\.id), "seed \(Self.seed): \(mode) \(String(reflecting: text))")
            }
        }
    }

    @Test("Folding a name and folding its prefix agree byte-wise for the alphabet")
    func foldIsPrefixCompatible() {
        var generator = SplitMix64(seed: Self.seed ^ 0xF01D)
        for _ in 0..<500 {
            let name = Self.randomText(length: 1...10, using: &generator)
            let cut = Int.random(in: 0...name.count, using: &generator)
            let prefix = String(name.prefix(cut))
            #expect(Bytes.hasPrefix(Folding.fold(name), Folding.fold(prefix)),
                    "seed \(Self.seed): fold(\(String(reflecting: name))) does not start with fold(\(String(reflecting: prefix)))")
        }
    }
}
