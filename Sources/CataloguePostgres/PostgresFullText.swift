#if PostgreSQL
import CatalogueCore

/// The catalogue's full-text search on PostgreSQL: tsvector columns the library writes (the
/// words of the folded text, ``FullTextPattern/words(in:)`` over ``Folding/fold(_:options:)``,
/// the same words SQLite's FTS5 index holds), matched by a tsquery of the query's folded words,
/// each a prefix.
///
/// | table | pattern columns | vector |
/// | --- | --- | --- |
/// | product | any, `name` | `product.words` (the name) |
/// | country | `name`, `aliases` | `country.name_words` (name and aliases) |
/// | country | `capital` | `country.capital_words` |
/// | country | any | `country.name_words || country.capital_words` |
///
/// ```swift
/// PostgresFullText.words(of: ["Côte d'Ivoire", "Ivory Coast"])  // ["cote", "d", "ivoire", "ivory", "coast"]
/// ```
public enum PostgresFullText {
    /// PostgreSQL's limit on the length of one lexeme, in bytes: longer words are not indexed
    /// (`array_to_tsvector` refuses them), so a longer query word matches nothing.
    public static let maximumWordBytes = 2046

    /// The words written for `texts`: each folded, split into words, in order, without repeats
    /// or words over ``maximumWordBytes``.
    public static func words(of texts: [String?]) -> [String] {
        var seen: Set<String> = []
        var words: [String] = []
        for text in texts {
            guard let text, !text.isEmpty else { continue }
            for word in FullTextPattern.words(in: Folding.fold(text))
            where word.utf8.count <= maximumWordBytes && seen.insert(word).inserted {
                words.append(word)
            }
        }
        return words
    }

    /// The words of a query, folded as the stored words are, joined by spaces for binding; nil
    /// when one is too long to be a stored word's prefix (the pattern matches nothing).
    static func queryWords(_ pattern: FullTextPattern) -> String? {
        let words = FullTextPattern.words(in: Folding.fold(pattern.words.joined(separator: " ")))
        guard !words.isEmpty, words.allSatisfy({ $0.utf8.count <= maximumWordBytes }) else { return nil }
        return words.joined(separator: " ")
    }

    /// The query of a pattern with typo alternatives, for binding: for each word its folded
    /// words, the last followed by its alternatives after `|` (`columbia|colombia bogota`),
    /// groups joined by spaces (words hold neither); nil when the pattern has no alternatives
    /// (``queryWords(_:)`` then) or a word is too long to be stored.
    static func queryGroups(_ pattern: FullTextPattern) -> String? {
        guard pattern.hasTypoAlternatives, let alternatives = pattern.typoAlternatives else { return nil }
        var groups: [String] = []
        for (index, word) in pattern.words.enumerated() {
            let folded = FullTextPattern.words(in: Folding.fold(word))
            guard folded.allSatisfy({ $0.utf8.count <= maximumWordBytes }) else { return nil }
            groups.append(contentsOf: folded)
            if index < alternatives.count, !alternatives[index].isEmpty, !groups.isEmpty {
                groups[groups.count - 1] += "|" + alternatives[index].joined(separator: "|")
            }
        }
        return groups.isEmpty ? nil : groups.joined(separator: " ")
    }

    /// The tsvector expression a pattern searches in `schema`'s table.
    static func vectorExpression(for pattern: FullTextPattern, schema: RecordSchema) throws -> String {
        guard let vectors = vectors[schema.table] else {
            throw FetchRequestError.unsupported("full-text search on \(schema.table) (no tsvector column is known for it)")
        }
        guard let columns = pattern.columns else { return vectors.any }
        var chosen: [String] = []
        for column in columns {
            guard let vector = vectors.byColumn[column] else {
                throw FetchRequestError.unsupported("full-text search in column \(column) of \(schema.table)")
            }
            if !chosen.contains(vector) { chosen.append(vector) }
        }
        return chosen.count == 1 ? chosen[0] : "(" + chosen.joined(separator: " || ") + ")"
    }

    /// The tsvector columns of the catalogue's tables (migrations/postgres/0001_initial.sql).
    static let vectors: [String: (byColumn: [String: String], any: String)] = [
        "product": (["name": "product.words"], "product.words"),
        "country": (
            ["name": "country.name_words", "aliases": "country.name_words", "capital": "country.capital_words"],
            "(country.name_words || country.capital_words)"),
    ]

    /// The tsvector columns the library writes in `table`, in the order of ``vectorValues(of:values:)``.
    static func vectorColumns(of table: String) -> [String] {
        switch table {
        case "product": ["words"]
        case "country": ["name_words", "capital_words"]
        default: []
        }
    }

    /// The words each tsvector column of `record`'s row holds, by column name, for writing.
    static func vectorValues<R: Record>(of record: R, values: [DatabaseValue]) -> [(column: String, words: [String])] {
        let schema = R.schema
        func text(_ column: String) -> String? {
            guard let index = schema.columns.firstIndex(of: column), case .text(let text) = values[index] else { return nil }
            return text
        }
        switch schema.table {
        case "product":
            return [("words", words(of: [text("name")]))]
        case "country":
            return [
                ("name_words", words(of: [text("name")] + record.aliases.map { $0 })),
                ("capital_words", words(of: [text("capital")])),
            ]
        default:
            return []
        }
    }

    /// `words` in tsvector input syntax (`'cote' 'ivoire'`): each lexeme quoted, `'` and `\`
    /// doubled, for COPY.
    static func vectorLiteral(_ words: [String]) -> String {
        words.map { word in
            "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        }.joined(separator: " ")
    }
}
#endif
