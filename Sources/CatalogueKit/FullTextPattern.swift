import Foundation

/// An FTS5 query that matches records in which every word typed is the prefix of a word, built
/// so that no user text can be FTS5 syntax.
///
/// Like GRDB's `FTS5Pattern(matchingAllPrefixesIn:)`, without opening a connection: the text is
/// split into words (runs of letters, digits and marks); each word becomes a quoted prefix
/// phrase, so `"`, `*`, `^`, `:`, `-`, parentheses, `NEAR`, `AND`, `OR` and `NOT` are all just
/// text.
///
/// ```swift
/// let pattern = FullTextPattern(matchingAllPrefixesIn: "united ki")
/// pattern?.rawPattern  // "\"united\"* \"ki\"*"
/// FullTextPattern(matchingAllPrefixesIn: "(*)")  // nil: no word at all
/// ```
public struct FullTextPattern: Sendable, Hashable {
    /// The FTS5 query string, bound as an argument of `MATCH`.
    public let rawPattern: String
    /// The words of the text, in order.
    public let words: [String]

    /// A pattern requiring every word of `text` as a word prefix, or nil when `text` has no
    /// word. `columns` restricts the match to those FTS columns (names from the schema, not user
    /// text).
    public init?(matchingAllPrefixesIn text: String, columns: [String]? = nil) {
        let words = Self.words(in: text)
        guard !words.isEmpty else { return nil }
        self.words = words
        let phrases = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
        if let columns, !columns.isEmpty {
            rawPattern = "{" + columns.joined(separator: " ") + "} : (" + phrases + ")"
        } else {
            rawPattern = phrases
        }
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

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
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
