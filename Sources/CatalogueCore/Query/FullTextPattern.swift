import Foundation

/// A full-text query that matches records in which every word typed is the prefix of a word
/// of the searched columns.
///
/// Like GRDB's `FTS5Pattern(matchingAllPrefixesIn:)`, without opening a connection: the text is
/// split into words (runs of letters, digits and marks), so punctuation and query syntax
/// (`"`, `*`, `^`, `:`, `-`, parentheses, `NEAR`, `AND`, `OR`, `NOT`) are never operators. Each
/// engine turns the words into its own query, always as a bound argument: an FTS5 pattern of
/// quoted prefix phrases on SQLite, a `tsquery` of prefix lexemes on PostgreSQL.
///
/// ```swift
/// let pattern = FullTextPattern(matchingAllPrefixesIn: "united ki")
/// pattern?.words  // ["united", "ki"]
/// FullTextPattern(matchingAllPrefixesIn: "(*)")  // nil: no word at all
/// ```
///
/// A pattern that tolerates typos (``MatchMode/fuzzy``) also matches, for each word, the
/// indexed words within its typos (``typoAlternatives``); the engine looks them up in its
/// full-text vocabulary before writing SQL (``CatalogueReading/resolvingTypos(in:)``).
public struct FullTextPattern: Sendable, Hashable {
    /// The words of the text, in order.
    public let words: [String]
    /// The full-text columns the words must match in (names from the schema, not user text);
    /// nil for any.
    public let columns: [String]?
    /// Whether a word may also match an indexed word within its typos
    /// (``TypoDistance/allowedTypos(forLength:)``).
    public let toleratesTypos: Bool
    /// For each word, the folded indexed words it also matches, whole, with typos (closest
    /// first); nil until an engine looked them up, or when the pattern does not tolerate typos.
    public private(set) var typoAlternatives: [[String]]?
    /// For each word, whether an indexed word begins with it, as the vocabulary read for its
    /// typos showed: false only when none does, so that a prefix query of the word merges no
    /// term at all (a typo's usual case: nothing begins with "montral"). True where the
    /// vocabulary was not read (a word too short for typos); nil until an engine looked the
    /// typos up.
    public private(set) var beginsIndexedWord: [Bool]?

    /// A pattern requiring every word of `text` as a word prefix, or nil when `text` has no
    /// word. `columns` restricts the match to those FTS columns (``RecordSchema/fullTextColumns``:
    /// a request naming any other throws ``FetchRequestError/unknownColumn(_:table:known:)``).
    /// `toleratingTypos` lets each word also match indexed words within its typos.
    public init?(matchingAllPrefixesIn text: String, columns: [String]? = nil, toleratingTypos: Bool = false) {
        let words = Self.words(in: text)
        guard !words.isEmpty else { return nil }
        self.words = words
        self.columns = columns?.isEmpty == true ? nil : columns
        self.toleratesTypos = toleratingTypos
        self.typoAlternatives = nil
        self.beginsIndexedWord = nil
    }

    private init(
        words: [String], columns: [String]?, toleratesTypos: Bool, typoAlternatives: [[String]]?, beginsIndexedWord: [Bool]?
    ) {
        self.words = words
        self.columns = columns
        self.toleratesTypos = toleratesTypos
        self.typoAlternatives = typoAlternatives
        self.beginsIndexedWord = beginsIndexedWord
    }

    /// The same words without typo tolerance: what the pattern matches exactly.
    public var exact: FullTextPattern {
        FullTextPattern(words: words, columns: columns, toleratesTypos: false, typoAlternatives: nil, beginsIndexedWord: nil)
    }

    /// Whether some word has typo alternatives, so the pattern matches more than ``exact``.
    public var hasTypoAlternatives: Bool {
        typoAlternatives?.contains { !$0.isEmpty } == true
    }

    /// Whether the pattern tolerates typos and its alternatives are still to be looked up.
    public var needsTypoAlternatives: Bool {
        toleratesTypos && typoAlternatives == nil
    }

    /// The pattern with ``typoAlternatives`` looked up in an engine's vocabulary:
    /// `vocabulary(first)` gives the indexed words (folded) that start with the character
    /// `first`. For each word of ``TypoDistance/allowedTypos(forLength:)`` > 0 characters
    /// (folded), the indexed words that it does not begin but that are within its typos, whole
    /// or by their start (as "did you mean" suggestions compare), at most
    /// ``typoAlternativeLimit``, fewest typos first; and whether it begins any indexed word
    /// (``beginsIndexedWord``). A typo in the first letter is not forgiven: it is how the
    /// vocabulary is read, by the range of that letter. Typos are looked for in the first
    /// ``typoWordLimit`` distinct words only; later words match exactly.
    ///
    /// ```swift
    /// let pattern = FullTextPattern(matchingAllPrefixesIn: "columbia", toleratingTypos: true)!
    /// pattern.resolvingTypos { _ in ["colombia", "comoros"] }.typoAlternatives  // [["colombia"]]
    /// ```
    public func resolvingTypos(vocabulary: (String) throws -> [String]) rethrows -> FullTextPattern {
        guard toleratesTypos else { return self }
        // Each letter's vocabulary read and split into scalars once, each distinct word looked
        // up once: 42 five-digit words compared each with the 111,112 indexed words that start
        // with its digit took 2.35 s at 1,000,000 products.
        var vocabularies: [String: [[Unicode.Scalar]]] = [:]
        var resolved: [String: (alternatives: [String], begins: Bool)] = [:]
        var alternatives: [[String]] = []
        var beginsIndexedWord: [Bool] = []
        for word in words {
            let folded = Self.words(in: Folding.fold(word))
            // A word folding into several (rare: "½") matches exactly; so does one too short.
            guard folded.count == 1, let first = folded[0].unicodeScalars.first,
                  TypoDistance.allowedTypos(forLength: folded[0].unicodeScalars.count) > 0
            else {
                alternatives.append([])
                beginsIndexedWord.append(true)
                continue
            }
            if resolved[folded[0]] == nil, resolved.count < Self.typoWordLimit {
                let key = String(first)
                let terms: [[Unicode.Scalar]]
                if let known = vocabularies[key] {
                    terms = known
                } else {
                    terms = try vocabulary(key).map { Array($0.unicodeScalars) }
                    vocabularies[key] = terms
                }
                resolved[folded[0]] = Self.closeTerms(to: Array(folded[0].unicodeScalars), among: terms)
            }
            // Past the limit: exact, and (not looked up) taken to begin an indexed word.
            let found = resolved[folded[0]] ?? ([], true)
            alternatives.append(found.alternatives)
            beginsIndexedWord.append(found.begins)
        }
        return FullTextPattern(
            words: words, columns: columns, toleratesTypos: true, typoAlternatives: alternatives,
            beginsIndexedWord: beginsIndexedWord)
    }

    /// The terms within `typed`'s typos that it does not begin, at most ``typoAlternativeLimit``,
    /// fewest typos first; and whether it begins any term.
    private static func closeTerms(
        to typed: [Unicode.Scalar], among terms: [[Unicode.Scalar]]
    ) -> (alternatives: [String], begins: Bool) {
        // A term shorter than this is too short for the whole word or its start to be close.
        let shortest = typed.count - TypoDistance.allowedTypos(forLength: typed.count)
        var close: [(typos: Int, term: String)] = []
        var begins = false
        for candidate in terms where candidate.count >= shortest {
            // None exactly when the term begins with the typed word.
            guard let typos = CatalogueSearch.fuzzyTypos(typed: typed, candidate: candidate) else { continue }
            if typos == 0 {
                begins = true
            } else {
                close.append((typos, String(String.UnicodeScalarView(candidate))))
            }
        }
        close.sort { ($0.typos, $0.term) < ($1.typos, $1.term) }
        return (close.prefix(typoAlternativeLimit).map(\.term), begins)
    }

    /// How many distinct typed words a fuzzy search looks for typos in (the first ones); the
    /// rest match exactly, as search engines stop at about ten words.
    public static let typoWordLimit = 10

    /// The most indexed words one typed word also matches with typos.
    public static let typoAlternativeLimit = 64

    /// The words of `text`: maximal runs of letters, numbers and combining marks, after
    /// composing the text (NFC), so a decomposed "é" stays in its word.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        // Text below U+0300 (Latin up to the IPA block) is already composed: no scalar there
        // combines with another or changes under NFC. Foundation's normalization costs about
        // 26,000 instructions a call, most of a search's suggestions ranking.
        let composed = text.unicodeScalars.allSatisfy { $0.value < 0x300 } ? text : text.precomposedStringWithCanonicalMapping
        for scalar in composed.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// Whether `scalar` belongs to a word: a letter, number or mark.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            // ASCII's letters and digits; its other characters are punctuation, symbols,
            // spaces and controls.
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
             .privateUse:
            return true
        default:
            return false
        }
    }
}
