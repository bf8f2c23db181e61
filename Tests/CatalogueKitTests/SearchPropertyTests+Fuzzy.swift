import CatalogueKit
import CatalogueTestSupport
import Testing

extension SearchPropertyTests {
    /// Whether a typed word (folded) matches a word of a name as ``MatchMode/fuzzy`` promises:
    /// the word starts with it, or, the first letter equal, the word or its start is within the
    /// typed word's typos.
    static func fuzzyMatches(_ typed: [Unicode.Scalar], _ word: [Unicode.Scalar]) -> Bool {
        if word.starts(with: typed) { return true }
        let allowed = TypoDistance.allowedTypos(forLength: typed.count)
        guard allowed > 0, typed.first == word.first else { return false }
        if TypoDistance.distance(typed, word, atMost: allowed) != nil { return true }
        return word.count > typed.count && TypoDistance.distance(typed, Array(word.prefix(typed.count)), atMost: allowed) != nil
    }

    /// Words of names with one or two random typos after the first letter (insertion,
    /// deletion, substitution, transposition), sometimes with a second word typed.
    static func typoNeedles(from products: [Product], using generator: inout SplitMix64) -> [String] {
        let letters = "abcdefghijklmnopqrstuvwxyzé".map(String.init)
        let long = products.flatMap { tokens($0.name) }.filter { $0.count >= 5 }
        guard !long.isEmpty else { return [] }
        return (0..<150).map { index in
            var word = Array(long.randomElement(using: &generator)!)
            for _ in 0..<(index % 3 == 0 ? 2 : 1) where word.count > 2 {
                let at = Int.random(in: 1..<word.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: word.insert(Character(letters.randomElement(using: &generator)!), at: at)
                case 1: word.remove(at: at)
                case 2: word[at] = Character(letters.randomElement(using: &generator)!)
                default: if at + 1 < word.count { word.swapAt(at, at + 1) }
                }
            }
            let typed = String(word)
            return index % 5 == 0 ? typed + " " + randomText(length: 1...2, from: letters, using: &generator) : typed
        }
    }

    @Test("fuzzy results equal a model (every typed word starts a word or is within its typos), with the words results first, in their order")
    func fuzzyMatchesModel() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0xF022_5EED)
        let (catalogue, products) = try Self.makeCatalogue(from: Self.wordsAlphabet, using: &generator)
        var withTyposOnly = 0
        let needles = Self.needles(from: products, alphabet: Self.wordsAlphabet, using: &generator)
            + Self.typoNeedles(from: products, using: &generator)
        for text in needles {
            let normalized = CatalogueSearch.normalizedText(text)
            let typed = FullTextPattern.words(in: normalized).flatMap(Self.tokens).map { Array($0.unicodeScalars) }
            let expected = normalized.isEmpty ? Set(products.compactMap(\.id)) : typed.isEmpty ? [] : Set(products.filter { product in
                let words = Self.tokens(product.name).map { Array($0.unicodeScalars) }
                return typed.allSatisfy { word in words.contains { Self.fuzzyMatches(word, $0) } }
            }.compactMap(\.id))
            let (fuzzy, words) = try catalogue.read { db in
                (try db.fetchIDs(CatalogueSearch.products(matching: text, mode: .fuzzy)),
                 try db.fetchIDs(CatalogueSearch.products(matching: text, mode: .words)))
            }
            if fuzzy.count > words.count { withTyposOnly += 1 }
            #expect(Set(fuzzy) == expected,
                    "seed \(Self.seed): fuzzy \(String(reflecting: text)): missing \(expected.subtracting(fuzzy).count), extra \(Set(fuzzy).subtracting(expected).count)")
            #expect(Array(fuzzy.prefix(words.count)) == words, "seed \(Self.seed): fuzzy \(String(reflecting: text)): exact matches first")
            #expect(fuzzy.count == Set(fuzzy).count, "seed \(Self.seed): fuzzy \(String(reflecting: text)): a record twice")
        }
        #expect(withTyposOnly > 30, "seed \(Self.seed): too few needles found something only with typos")
    }
}
