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
public struct FullTextPattern: Sendable, Hashable {
    /// The words of the text, in order.
    public let words: [String]
    /// The full-text columns the words must match in (names from the schema, not user text);
    /// nil for any.
    public let columns: [String]?

    /// A pattern requiring every word of `text` as a word prefix, or nil when `text` has no
    /// word. `columns` restricts the match to those FTS columns (names from the schema, not user
    /// text).
    public init?(matchingAllPrefixesIn text: String, columns: [String]? = nil) {
        let words = Self.words(in: text)
        guard !words.isEmpty else { return nil }
        self.words = words
        self.columns = columns?.isEmpty == true ? nil : columns
    }

    /// The words of `text`: maximal runs of letters, numbers and combining marks, after
    /// composing the text (NFC), so a decomposed "é" stays in its word.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
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
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
             .privateUse:
            true
        default:
            false
        }
    }
}
