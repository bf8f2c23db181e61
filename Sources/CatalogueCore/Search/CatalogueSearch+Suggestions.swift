/// "Did you mean": names close to search text that found nothing, the way search engines
/// forgive typos.
///
/// A value (a country's name, alias or capital, a product's name) is suggested when every word
/// typed matches one of its words, folded: as the start of the word, or with at most
/// ``TypoDistance/allowedTypos(forLength:)`` typos (none up to 4 characters, one from 5 to 8,
/// two from 9 on) against the whole word or its start. The closest come first (fewest typos,
/// then folded order), at most ``suggestionLimit``, one per record: a country is suggested by
/// its name, or by the alias or capital that matched when its name did not match as closely.
///
/// Countries are few: every name, alias and capital of the scope is compared. Products are read
/// through the word index: the first ``productCandidateLimit`` products that
/// ``MatchMode/fuzzy`` finds for the text in the scope, unranked, in the order the engine's
/// word index gives them (SQLite: by id; ranking 22,000 close names in display order cost a
/// `catalogue search` process 9 ms of its 16 at 1,000,000 products), so every typed word must
/// match a word of the name, and the first letter of each must be right. Among them the
/// closest are suggested, as above.
///
/// ```swift
/// let names = try catalogue.read { db in try CatalogueSearch.suggestions(for: "Columbia", scope: CountryScope.name, in: db) }
/// // ["Colombia"]
/// ```
extension CatalogueSearch {
    /// The most suggestions returned.
    public static let suggestionLimit = 5
    /// The most products read for suggestions: the first the fuzzy mode finds, in the order the
    /// word index gives them.
    public static let productCandidateLimit = 100

    /// Up to `limit` country names, aliases or capitals (as the scope reads them) close to `text`.
    public static func suggestions(
        for text: String, scope: CountryScope, in db: some CatalogueReading, limit: Int = suggestionLimit
    ) throws -> [String] {
        let typed = typedWords(text)
        guard !typed.isEmpty else { return [] }
        let countries = try db.fetch(FetchRequest<Country>(predicate: .true, sortDescriptors: FetchSortDescriptor.byName))
        let values = countries.map { country -> [String] in
            switch scope {
            case .name: [country.name] + country.aliases
            case .capital: country.capital.map { [$0] } ?? []
            case .any: [country.name] + (country.capital.map { [$0] } ?? []) + country.aliases
            }
        }
        return closest(to: typed, among: values, limit: limit)
    }

    /// Up to `limit` product names in the scope close to `text`.
    public static func suggestions(
        for text: String, scope: ProductScope, in db: some CatalogueReading, limit: Int = suggestionLimit
    ) throws -> [String] {
        let typed = typedWords(text)
        guard !typed.isEmpty, limit > 0 else { return [] }
        var request = products(matching: text, scope: scope, mode: .fuzzy)
        request.fetchLimit = productCandidateLimit
        // Unranked: the first matches by id (the order SQLite's index gives them in, and the
        // same candidates on PostgreSQL), not the first in display order.
        request.sortDescriptors = [FetchSortDescriptor("id")]
        return closest(to: typed, among: try db.fetch(request).map { [$0.name] }, limit: limit)
    }

    /// The folded words of `text`.
    static func typedWords(_ text: String) -> [[Unicode.Scalar]] {
        FullTextPattern.words(in: text).map { Array(Folding.fold($0).unicodeScalars) }
    }

    /// For each record (its values, the preferred first), the value that matches every typed
    /// word with the fewest typos (the first such on a tie); the records' values closest first,
    /// without repeats.
    static func closest(to typed: [[Unicode.Scalar]], among records: [[String]], limit: Int) -> [String] {
        var scored: [(typos: Int, key: String, value: String)] = []
        for values in records {
            var best: (typos: Int, value: String)?
            for value in values {
                guard let typos = typos(typed: typed, value: value), typos < best?.typos ?? .max else { continue }
                best = (typos, value)
            }
            if let best { scored.append((best.typos, Folding.fold(best.value), best.value)) }
        }
        scored.sort { ($0.typos, $0.key, $0.value) < ($1.typos, $1.key, $1.value) }
        var seen: Set<String> = []
        var suggestions: [String] = []
        for entry in scored where suggestions.count < limit && seen.insert(entry.value).inserted {
            suggestions.append(entry.value)
        }
        return suggestions
    }

    /// The typos of `value` against the typed words: their sum when every typed word matches
    /// one of its words, else nil.
    static func typos(typed: [[Unicode.Scalar]], value: String) -> Int? {
        let words = FullTextPattern.words(in: value).map { Array(Folding.fold($0).unicodeScalars) }
        var total = 0
        for word in typed {
            guard let typos = words.compactMap({ typos(typed: word, candidate: $0) }).min() else { return nil }
            total += typos
        }
        return total
    }

    /// The typos ``MatchMode/fuzzy`` forgives between a typed word and an indexed word: those of
    /// ``typos(typed:candidate:)`` when both start with the same letter; else nil. The search
    /// and its highlighting both ask this.
    static func fuzzyTypos(typed: [Unicode.Scalar], candidate: [Unicode.Scalar]) -> Int? {
        guard typed.first == candidate.first else { return nil }
        return typos(typed: typed, candidate: candidate)
    }

    /// The typos between a typed word and a word of a value: none when the value's word starts
    /// with it; else the fewer against the whole word or its start of the same length, when
    /// within what the typed word's length allows.
    static func typos(typed: [Unicode.Scalar], candidate: [Unicode.Scalar]) -> Int? {
        if candidate.starts(with: typed) { return 0 }
        let allowed = TypoDistance.allowedTypos(forLength: typed.count)
        guard allowed > 0 else { return nil }
        let whole = TypoDistance.distance(typed, candidate, atMost: allowed)
        let start = candidate.count > typed.count
            ? TypoDistance.distance(typed[...], candidate.prefix(typed.count), atMost: allowed) : nil
        return [whole, start].compactMap { $0 }.min()
    }
}
