#if PostgreSQL
import CatalogueCore

/// The catalogue's full-text search on PostgreSQL: tsvector columns the library writes (the
/// words of the folded text, ``FullTextPattern/words(in:)`` over ``Folding/fold(_:options:)``),
/// matched by a tsquery of the query's folded words, each a prefix. For Latin text other than ß
/// these are the words SQLite's FTS5 index holds; its `unicode61` tokenizer keeps ß, the accents
/// of other scripts, and ends words at combining marks, where ``Folding`` does not (the DocC
/// article "Searching the catalogue" says what differs).
///
/// | table | pattern columns | vector |
/// | --- | --- | --- |
/// | product | any, `name` | `product.words` (the name) |
/// | country | `name`, `aliases` | `country.name_words` (name and aliases) |
/// | country | `capital` | `country.capital_words` |
/// | country | any | `country.name_words || country.capital_words` |
/// | an app's table | each of ``RecordSchema/fullTextColumns`` | `table.column_words` (``vectorColumn(for:)``) |
/// | an app's table | any | those columns joined by `||` |
///
/// An app's record type has words search when its schema names a ``RecordSchema/fullTextTable``
/// and ``RecordSchema/fullTextColumns``, and its table has the vector columns
/// (``PostgresSearchSupport`` makes them).
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
        guard let vectors = vectors(of: schema) else {
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

    /// The tsvector columns of a table, as a search names them.
    struct Vectors: Sendable {
        /// Each full-text column's vector, qualified (`country.name_words`).
        let byColumn: [String: String]
        /// The vector a search in any column reads: one column, or several joined by `||`.
        let any: String
    }

    /// The tsvector columns of `schema`'s table: the catalogue's own
    /// (migrations/postgres/0001_initial.sql), or an app type's ``vectorColumn(for:)`` of each
    /// of its ``RecordSchema/fullTextColumns``; nil when it has none.
    static func vectors(of schema: RecordSchema) -> Vectors? {
        if let builtIn = builtInVectors[schema.table] { return builtIn }
        guard hasAppVectors(schema) else { return nil }
        let qualified = schema.fullTextColumns.map { "\(schema.table).\(vectorColumn(for: $0))" }
        return Vectors(
            byColumn: Dictionary(zip(schema.fullTextColumns, qualified), uniquingKeysWith: { first, _ in first }),
            any: qualified.count == 1 ? qualified[0] : "(" + qualified.joined(separator: " || ") + ")")
    }

    /// Whether `schema`, an app type's, has a vector for each of its full-text columns: it
    /// names an FTS5 table and its columns, as words search on SQLite needs too. (Checked on
    /// every row written, without building the vectors' names.)
    private static func hasAppVectors(_ schema: RecordSchema) -> Bool {
        schema.fullTextTable != nil && !schema.fullTextColumns.isEmpty
    }

    /// The catalogue's tables' vectors, looked up without building them on every search.
    private static let builtInVectors: [String: Vectors] = [
        "product": Vectors(byColumn: ["name": "product.words"], any: "product.words"),
        "country": Vectors(
            byColumn: ["name": "country.name_words", "aliases": "country.name_words", "capital": "country.capital_words"],
            any: "(country.name_words || country.capital_words)"),
    ]

    /// The tsvector column that holds the words of an app type's full-text column `column`:
    /// `column_words`.
    ///
    /// ```swift
    /// PostgresFullText.vectorColumn(for: "name")  // "name_words"
    /// ```
    public static func vectorColumn(for column: String) -> String {
        column + "_words"
    }

    /// The tsvector columns the library writes in `schema`'s table, in the order of
    /// ``vectorValues(of:values:)``.
    static func vectorColumns(of schema: RecordSchema) -> [String] {
        switch schema.table {
        case "product": ["words"]
        case "country": ["name_words", "capital_words"]
        default: hasAppVectors(schema) ? schema.fullTextColumns.map(vectorColumn(for:)) : []
        }
    }

    /// The words each tsvector column of `record`'s row holds, for writing, in the order of
    /// ``vectorColumns(of:)`` (whose names a row need not build): of a text value, or an
    /// integer's digits (as SQLite's FTS5 indexes them).
    static func vectorValues<R: Record>(of record: R, values: [DatabaseValue]) -> [[String]] {
        let schema = R.schema
        func text(_ column: String) -> String? {
            guard let index = schema.columns.firstIndex(of: column) else { return nil }
            switch values[index] {
            case .text(let text): return text
            case .integer(let number): return String(number)
            default: return nil
            }
        }
        switch schema.table {
        case "product":
            return [words(of: [text("name")])]
        case "country":
            return [words(of: [text("name")] + record.aliases.map { $0 }), words(of: [text("capital")])]
        default:
            guard hasAppVectors(schema) else { return [] }
            return schema.fullTextColumns.map { words(of: [text($0)]) }
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
