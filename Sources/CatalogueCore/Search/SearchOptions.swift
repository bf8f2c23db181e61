/// What a search looks for.
public enum CatalogueEntity: String, Sendable, Hashable, CaseIterable, Codable {
    /// Countries, searched by name (and alias) or capital.
    case countries
    /// Products, searched by name, in every type or one.
    case products
}

/// How search text matches.
///
/// ```swift
/// MatchMode(rawValue: "words")  // .words
/// ```
public enum MatchMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// BEGINSWITH[cd]: the field starts with the text (default). An index range scan.
    case prefix
    /// CONTAINS[cd]: the field contains the text.
    case contains
    /// Full-text (FTS5): every word typed is the prefix of a word of the field; ranked.
    case words
    /// Apple's advanced search: every whitespace-separated term matches; a term matches when
    /// the name (or a country's capital) contains it, or, when it is a number, when year or
    /// price (a country's population) equals it.
    case terms
    /// Typo-tolerant words, the way search engines forgive typos: ``words``, where a typed word
    /// of 5 to 8 characters may also match an indexed word with one typo, and a longer one with
    /// two (``TypoDistance``: an insertion, deletion, substitution or transposition each), the
    /// whole word or its start; the first letter must be right. What ``words`` finds comes
    /// first, in its order; then the matches with typos: names that begin with a word meant,
    /// then the others, each in display order (``RelevanceTiers``).
    case fuzzy
}

/// Which field of a country a search reads.
public enum CountryScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// The name or any alias ("ivory" finds Côte d'Ivoire). The default.
    case name
    /// The capital.
    case capital
    /// Name, alias or capital.
    case any

    /// The scope as a scope bar shows it: "Name", "Capital", "Any".
    public var title: String {
        switch self {
        case .name: "Name"
        case .capital: "Capital"
        case .any: "Any"
        }
    }
}

/// Which products a search reads: all of them, or one type (compared case-insensitively).
///
/// ```swift
/// ProductScope(parsing: "Device")  // .type("Device"), matches type "device"
/// ProductScope(parsing: "all")     // .all
/// ```
public enum ProductScope: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Every product. The default.
    case all
    /// Products of one type.
    case type(String)

    /// `all` (any case) is ``all``; anything else is a type.
    public init(parsing text: String) {
        self = text.lowercased() == "all" ? .all : .type(text)
    }

    public var description: String {
        switch self {
        case .all: "all"
        case .type(let type): type
        }
    }
}
