#if PostgreSQL
import CatalogueCore

/// PostgreSQL's SQL for the parts of a request that differ between engines: `$n` parameters,
/// `TRUE`/`FALSE`, `LIMIT NULL`, `IS DISTINCT FROM`, `LIKE … ESCAPE '\'` for CONTAINS, ENDSWITH
/// and LIKE (served by `pg_trgm` GIN indexes where the database has them,
/// ``PostgresEngine/Capabilities/trigramIndexes``; the same SQL reads every row where it has
/// not), `~`/`~*` for MATCHES, and full-text match and rank on the tsvector columns the library
/// writes.
///
/// ```swift
/// let select = try CatalogueSearch.countries(matching: "bog", scope: .capital).selectSQL(in: PostgresDialect())
/// select.sql  // "SELECT country.id, … WHERE country.capital_key >= $1 AND country.capital_key < $2 … LIMIT $3 OFFSET $4"
/// ```
///
/// Text holding U+0000 (which PostgreSQL text cannot store) in BEGINSWITH, CONTAINS, ENDSWITH
/// and LIKE matches no stored value, as on SQLite, without being sent.
///
/// What PostgreSQL cannot do exactly as the SQLite engine does, it refuses with
/// ``FetchRequestError/unsupported(_:)`` instead of answering differently:
/// - **Folding a column without a stored key** (`[c]`, `[d]` on `continent`, say): the library's
///   folding (Unicode case folding, "Straße" → "strasse"; combining marks dropped) has no
///   PostgreSQL equivalent. `lower()` under the schema's `COLLATE "C"` lowers ASCII letters only,
///   and `unaccent` folds other letters than ``Folding`` does (ø → o). Columns with a key
///   (`name`, `capital`, `type`) compare `[cd]` on the key, exactly.
/// - **MATCHES** uses PostgreSQL's regular expressions (POSIX "advanced" regular expressions,
///   ARE), not ICU's: the common syntax (`.`, `*`, `+`, `?`, `{m,n}`, bracket classes of
///   characters and ranges, groups, `|`) means the same, `.` matching a line break on both;
///   escapes that mean something else or nothing in ARE (`\b` is a backspace there, `\p{…}`,
///   `\Q…\E`, `\X`, …), the class escapes `\d`, `\s`, `\w` and their negations (ASCII only
///   under `COLLATE "C"`, all of Unicode in ICU), `[` and `&&` inside a class and a class that
///   starts with `:` (nested sets, `[:alpha:]` in ICU), atomic groups and possessive quantifiers
///   are refused. `[c]` is `~*`, which under `COLLATE "C"` ignores the case of ASCII letters
///   only, so the pattern's letters must be ASCII; `[cd]` matches the column's folded key with `~*`;
///   `[d]` alone, and `[d]` on a column without a key, are refused.
public struct PostgresDialect: SQLDialect {
    /// PostgreSQL's dialect (it has no settings).
    public init() {}

    public var placeholderStyle: PlaceholderStyle { .dollarNumbered }
    public var trueCondition: String { "TRUE" }
    public var falseCondition: String { "FALSE" }
    public var unlimited: DatabaseValue { .null }
    public var isDistinctFrom: String { "IS DISTINCT FROM" }

    /// 64. PostgreSQL's planner weighs every index condition of a WHERE against the others
    /// (bitmap index paths, combined pairwise), so its planning time grows with the square of
    /// their number: a `terms` search of 2,000 words over the country name and capital took
    /// 1.25 s to plan, and of 10,000 words over a minute, to run in 5 ms. Past 64 conditions
    /// the rest are one `(…) IS TRUE`, which only the first 64 are planned around: the
    /// 10,000-word search plans in 0.3 s. In a WHERE, `IS TRUE` keeps the rows `AND` would.
    public var largestPlannedConjunction: Int? { 64 }

    /// `expression >= $1 AND expression < $2`, both bound, so a generic plan keeps the B-tree
    /// range scan (a generic plan of `LIKE $1` cannot use it). Without a successor (an empty
    /// prefix, or only U+10FFFF, beyond which PostgreSQL stores no character) the range has no
    /// upper end: `expression >= $1`.
    public func appendPrefixRange(_ expression: String, prefix: String, into sql: inout SQLBuilder) {
        guard !Self.holdsNUL(prefix) else { return appendNeverMatches(expression, into: &sql) }
        sql.append(expression)
        sql.append(" >= ")
        sql.bind(.text(prefix))
        if let successor = FetchPredicate.prefixSuccessor(of: prefix) {
            sql.append(" AND ")
            sql.append(expression)
            sql.append(" < ")
            sql.bind(.text(successor))
        }
    }

    /// `expression LIKE $n ESCAPE '\'` with `%needle%`, the needle's `%`, `_` and `\` escaped.
    public func appendContains(_ expression: String, _ needle: String, into sql: inout SQLBuilder) {
        guard !Self.holdsNUL(needle) else { return appendNeverMatches(expression, into: &sql) }
        appendLikeText(expression, "%" + Self.escapedForLike(needle) + "%", into: &sql)
    }

    /// A required needle of one or two characters on a key with the short substring index (a
    /// key of ``RecordSchema/substringIndexedColumns``: the product name's, by migration
    /// `0005_short_contains_index`; an app type's, by ``PostgresSearchSupport``) is written as
    /// `(strpos(expression, $n) > 0 AND catalogue_short_substrings(expression) @> ARRAY[$m]::text[])`:
    /// the same rows, which the index lists, where `pg_trgm` has no trigram to look up. Every
    /// other CONTAINS is ``appendContains(_:_:into:)``'s LIKE. Among an OR's alternatives (a
    /// terms search's `lamp 20`: the name contains "20", or the year or price is 20) PostgreSQL
    /// checks the whole OR on each row it reads, and there the second condition would compute
    /// the list of every row holding the text: 1,117 times for `lamp 20` at 1,000,000 products,
    /// which made its count 6 → 26 ms.
    ///
    /// ```swift
    /// var sql = SQLBuilder(placeholderStyle: .dollarNumbered)
    /// PostgresDialect().appendContains("product.name_key", "mo", required: true, substringIndexed: true, into: &sql)
    /// // (strpos(product.name_key, $1) > 0 AND catalogue_short_substrings(product.name_key) @> ARRAY[$2]::text[])
    /// ```
    public func appendContains(
        _ expression: String, _ needle: String, required: Bool, substringIndexed: Bool, into sql: inout SQLBuilder
    ) {
        guard required, substringIndexed, !Self.holdsNUL(needle), (1...2).contains(needle.unicodeScalars.count)
        else { return appendContains(expression, needle, into: &sql) }
        sql.append("(strpos(\(expression), ")
        sql.bind(.text(needle))
        sql.append(") > 0 AND catalogue_short_substrings(\(expression)) @> ARRAY[")
        sql.bind(.text(needle))
        sql.append("]::text[])")
    }

    /// `expression LIKE $n ESCAPE '\'` with `%suffix`.
    public func appendEndsWith(_ expression: String, _ suffix: String, into sql: inout SQLBuilder) {
        guard !Self.holdsNUL(suffix) else { return appendNeverMatches(expression, into: &sql) }
        appendLikeText(expression, "%" + Self.escapedForLike(suffix), into: &sql)
    }

    /// `expression LIKE $n ESCAPE '\'`: `*` → `%`, `?` → `_`, literal text escaped. Under
    /// `COLLATE "C"` LIKE compares code points, case-sensitively (the expression and pattern are
    /// folded alike beforehand for `[cd]`).
    public func appendLike(_ expression: String, _ pattern: LikePattern, into sql: inout SQLBuilder) {
        guard !Self.holdsNUL(pattern.sqlLikePattern) else { return appendNeverMatches(expression, into: &sql) }
        appendLikeText(expression, pattern.sqlLikePattern, into: &sql)
    }

    /// Text with U+0000, which PostgreSQL cannot store, so no stored value contains it; nor can
    /// it be bound.
    static func holdsNUL(_ text: String) -> Bool {
        text.utf8.contains(0)
    }

    /// For text with U+0000: false for every stored value, NULL for NULL (as the comparison
    /// would be), so NOT of it keeps SQLite's answer.
    private func appendNeverMatches(_ expression: String, into sql: inout SQLBuilder) {
        sql.append("(CASE WHEN \(expression) IS NULL THEN NULL ELSE FALSE END)")
    }

    private func appendLikeText(_ expression: String, _ pattern: String, into sql: inout SQLBuilder) {
        sql.append(expression)
        sql.append(" LIKE ")
        sql.bind(.text(pattern))
        sql.append(" ESCAPE '\\'")
    }

    /// `%`, `_` and `\` preceded by `\`.
    static func escapedForLike(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "\\") }) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 4)
        // Scalar by scalar: `%` followed by a combining mark (or a joiner) is one Character, and
        // still a wildcard to PostgreSQL.
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// `column ~ $n` (`~*` for `[c]`; the key column with `~*` for `[cd]`), the pattern anchored
    /// as `^(?:pattern)$` so the whole value must match, as NSPredicate's MATCHES does.
    public func appendMatches(
        column: String, key: String?, _ regularExpression: String, options: ComparisonOptions, into sql: inout SQLBuilder
    ) throws {
        try PostgresRegularExpressions.checkPortable(regularExpression)
        let target: String
        let op: String
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false):
            target = column
            op = " ~ "
        case (true, false):
            try PostgresRegularExpressions.checkCaseInsensitive(regularExpression)
            target = column
            op = " ~* "
        case (true, true):
            guard let key else {
                throw FetchRequestError.unsupported("MATCHES[cd] on \(column), which has no folded key column")
            }
            try PostgresRegularExpressions.checkCaseInsensitive(regularExpression)
            target = key
            op = " ~* "
        case (false, true):
            throw FetchRequestError.unsupported(
                "MATCHES[d] without [c] (PostgreSQL has no diacritic-only folding; use [cd] on a column with a key)")
        }
        sql.append(target)
        sql.append(op)
        sql.bind(.text("^(?:" + regularExpression + ")$"))
    }

    /// Refused: PostgreSQL cannot fold a column as the library does (see the type's notes).
    public func foldedExpression(_ expression: String, options: ComparisonOptions) throws -> String {
        throw FetchRequestError.unsupported(
            "\(options.formatModifier) comparisons on \(expression), which has no folded key column "
                + "(PostgreSQL's lower() under COLLATE \"C\" folds ASCII letters only)")
    }

    /// `vector @@ (tsquery of the bound words)`.
    public func appendFullTextMatch(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws {
        let vector = try PostgresFullText.vectorExpression(for: pattern, schema: schema)
        guard let words = PostgresFullText.queryWords(pattern) else {
            sql.append(falseCondition)
            return
        }
        sql.append(vector)
        sql.append(" @@ ")
        appendQuery(words, pattern: pattern, into: &sql)
    }

    /// `table CROSS JOIN (SELECT tsquery) AS catalogue_query WHERE vector @@ catalogue_query.q`,
    /// ranked by `ts_rank(vector, q, 1) DESC` (the rank divided by 1 + the log of the
    /// vector's length: shorter names first among equal matches).
    public func appendRankedSource(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws -> String {
        let vector = try PostgresFullText.vectorExpression(for: pattern, schema: schema)
        sql.append(schema.table)
        guard let words = PostgresFullText.queryWords(pattern) else {
            sql.append(" WHERE ")
            sql.append(falseCondition)
            return schema.qualifiedID
        }
        sql.append(" CROSS JOIN (SELECT ")
        appendQuery(words, pattern: pattern, into: &sql)
        sql.append(" AS q) AS catalogue_query WHERE ")
        sql.append(vector)
        sql.append(" @@ catalogue_query.q")
        return "ts_rank(\(vector), catalogue_query.q, 1) DESC"
    }

    /// `WITH catalogue_matches AS MATERIALIZED (query) SELECT * FROM catalogue_matches`: the
    /// planner plans the query for every match, as it does a count (a bitmap scan of the GIN
    /// index, unless most rows match), and the page still stops reading after its rows.
    ///
    /// Given the LIMIT alone, the planner assumes the matches spread evenly over the table and
    /// scans it for the first ones; where they cluster (rows imported together), that read most
    /// of the table: about 90 ms for `velvet` at 1,000,000 products, 1 ms through the index.
    public func appendUnorderedMatchPage(into sql: inout SQLBuilder, _ appendQuery: (inout SQLBuilder) throws -> Void) throws {
        sql.append("WITH catalogue_matches AS MATERIALIZED (")
        try appendQuery(&sql)
        sql.append(") SELECT * FROM catalogue_matches")
    }

    /// True: a CONTAINS page in key order reads the first keys in order, then the matches
    /// beyond them through the `pg_trgm` index, sorted. Given the LIMIT alone, the planner reads
    /// the key index in order until 50 rows match; where the matches cluster late in the
    /// alphabet (`zéph`, whose rows come after 983,000 keys of 1,000,000), that read most of it:
    /// 98 ms, against 8 ms through the index.
    public var splitsContainsPages: Bool { true }

    /// 1: the matches of a text of one or two characters beyond the first keys are listed by the
    /// short substring index of a substring-indexed key
    /// (``appendContains(_:_:required:substringIndexed:into:)``), as longer texts' are by `pg_trgm`.
    /// At 1,000,000 products the ordered read of `mo` (33,503 matches, few among the first keys)
    /// took 84–115 ms.
    public var shortestSplitContainsText: Int { 1 }

    /// The tsquery `'w1':* & 'w2':* …` built in SQL from the words bound as one text (words
    /// never contain spaces): each lexeme quoted by `quote_literal` and cast, so no configuration
    /// or parser changes it and the user's text never becomes query syntax.
    ///
    /// A pattern with typo alternatives binds groups instead (`columbia|colombia bogota`): each
    /// group `('w1':* | 'a1' | 'a2')`, its first word a prefix and the others whole words.
    private func appendQuery(_ words: String, pattern: FullTextPattern, into sql: inout SQLBuilder) {
        if let groups = PostgresFullText.queryGroups(pattern) {
            sql.append("(SELECT string_agg('(' || (SELECT string_agg(quote_literal(a) || CASE WHEN n = 1 THEN ':*' ELSE '' END, ' | ') ")
            sql.append("FROM unnest(string_to_array(g, '|')) WITH ORDINALITY AS alternative(a, n)) || ')', ' & ')::tsquery ")
            sql.append("FROM unnest(string_to_array(")
            sql.bind(.text(groups))
            sql.append(", ' ')) AS g)")
            return
        }
        sql.append("(SELECT string_agg(quote_literal(w) || ':*', ' & ')::tsquery FROM unnest(string_to_array(")
        sql.bind(.text(words))
        sql.append(", ' ')) AS w)")
    }

    /// `expression NULLS FIRST` (ascending) or `expression DESC NULLS LAST`: SQLite's order,
    /// where PostgreSQL's own puts NULL last. Plain `expression` / `expression DESC` for the
    /// catalogue's NOT NULL columns, where the clause changes nothing, so the B-tree indexes
    /// (ascending, NULLS LAST) still give the order without a sort.
    public func orderTerm(_ expression: String, ascending: Bool, table: String, column: String) -> String {
        if Self.notNullColumns[table]?.contains(column) == true {
            return ascending ? expression : expression + " DESC"
        }
        return ascending ? expression + " NULLS FIRST" : expression + " DESC NULLS LAST"
    }

    /// The NOT NULL columns of the catalogue's tables (migrations/postgres/0001_initial.sql).
    static let notNullColumns: [String: Set<String>] = [
        "product": ["id", "name", "name_key", "type", "type_key", "section"],
        "country": ["id", "code", "name", "name_key", "aliases", "section"],
    ]

    /// The first character of the column: `left(column, 1)`, so a section scan sends one
    /// character a row.
    public func sectionExpression(_ qualifiedColumn: String) -> String {
        "left(\(qualifiedColumn), 1)"
    }
}
#endif
