/// What differs between the SQL of two engines, for the parts of a request that differ: how a
/// parameter is written, CONTAINS, ENDSWITH, folding a column without a stored key, full-text
/// match and rank, and "no limit".
///
/// CatalogueKit builds every request's SQL in one place (``FetchRequest/selectSQL(in:)``,
/// ``FetchRequest/countSQL(in:)``) and asks the dialect for these parts; each engine's module
/// implements its dialect (SQLite's in `CatalogueSQLite`, PostgreSQL's in `CataloguePostgres`).
/// User text only ever reaches the SQL as a bound argument: a dialect appends it with
/// ``SQLBuilder/bind(_:)``.
///
/// ```swift
/// var sql = SQLBuilder(dialect: dialect)
/// sql.append("SELECT count(*) FROM product WHERE ")
/// dialect.appendContains("product.name_key", "pad", into: &sql)
/// sql.fragment().sql  // SQLite: "… WHERE instr(product.name_key, ?) > 0"
/// ```
public protocol SQLDialect: Sendable {
    /// How bound parameters are written: `?` (SQLite) or `$1, $2, …` (PostgreSQL).
    var placeholderStyle: PlaceholderStyle { get }
    /// SQL for a condition that always holds (`1`, `TRUE`).
    var trueCondition: String { get }
    /// SQL for a condition that never holds (`0`, `FALSE`).
    var falseCondition: String { get }
    /// The value bound to `LIMIT` for "no limit" (SQLite: -1; PostgreSQL: NULL).
    var unlimited: DatabaseValue { get }
    /// The SQL operator for "not equal, NULL being a value" (`IS NOT`, `IS DISTINCT FROM`).
    var isDistinctFrom: String { get }
    /// At most how many conditions of a WHERE's `AND` the engine's planner is given one by one;
    /// those past it are given as one `(… AND …) IS TRUE`, which it checks row by row. Nil (the
    /// default): no limit. PostgreSQL: 64, because its planner weighs the index conditions of a
    /// WHERE against each other, in time that grows with the square of their number.
    ///
    /// ```swift
    /// PostgresDialect().largestPlannedConjunction  // 64: a 10,000-term search plans in 0.3 s, not minutes
    /// ```
    var largestPlannedConjunction: Int? { get }

    /// Appends `expression >= prefix AND expression < successor`, or what stands for it when
    /// the prefix has no successor (empty, or only U+10FFFF): the whole range above `prefix`.
    func appendPrefixRange(_ expression: String, prefix: String, into sql: inout SQLBuilder)
    /// Appends "`expression` contains `needle`" (literal text: no wildcard is special).
    func appendContains(_ expression: String, _ needle: String, into sql: inout SQLBuilder)
    /// Appends "`expression` contains `needle`", knowing whether every row of the statement
    /// must meet it (`required`: a conjunct of its WHERE, not under a NOT or among an OR's
    /// alternatives) and whether `expression` is a key of its table's
    /// ``RecordSchema/substringIndexedColumns`` (`substringIndexed`). By default
    /// ``appendContains(_:_:into:)`` either way; PostgreSQL writes a required text of one or two
    /// characters on a substring-indexed key in the form its short substring index serves,
    /// which among alternatives it would compute for every row it checks.
    ///
    /// ```swift
    /// dialect.appendContains("product.name_key", "mo", required: true, substringIndexed: true, into: &sql)
    /// ```
    func appendContains(_ expression: String, _ needle: String, required: Bool, substringIndexed: Bool, into sql: inout SQLBuilder)
    /// Appends "`expression` ends with `suffix`", for a non-empty suffix.
    func appendEndsWith(_ expression: String, _ suffix: String, into sql: inout SQLBuilder)
    /// Appends "`expression` matches the LIKE `pattern`" (literal text escaped as the engine needs).
    func appendLike(_ expression: String, _ pattern: LikePattern, into sql: inout SQLBuilder)
    /// Appends "the whole of `column` matches the regular expression" under `options` (`[c]`
    /// case-insensitive, `[d]` without diacritics: the pattern is already without them). `key`
    /// is the column's folded key, when it has one. Throws ``FetchRequestError/unsupported(_:)``
    /// for options the engine cannot honour.
    func appendMatches(
        column: String, key: String?, _ regularExpression: String, options: ComparisonOptions, into sql: inout SQLBuilder
    ) throws
    /// `expression` folded as `options` say, for a column without a stored key (no parameter:
    /// the options are not user text). Throws ``FetchRequestError/unsupported(_:)`` when the
    /// engine cannot fold so.
    func foldedExpression(_ expression: String, options: ComparisonOptions) throws -> String
    /// Appends "the record `id` matches the full-text `pattern`" for a record type's index.
    func appendFullTextMatch(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws
    /// Appends the FROM clause and the full-text condition of a request ranked by relevance,
    /// and returns the ORDER BY term that sorts best match first.
    func appendRankedSource(
        _ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder
    ) throws -> String
    /// Appends the FROM clause and the full-text condition of a request that reads matches in
    /// no order or by id (a count, an unsorted page): the matches as the index gives them, so
    /// that a page stops after its rows instead of collecting every match first. Only the
    /// record table's columns are in scope, as in `FROM table WHERE …`. Returns an expression
    /// equal to the record's id by which the engine orders the matches at no cost. By default
    /// ``appendRankedSource(_:schema:into:)``, and the qualified id.
    func appendMatchSource(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws -> String
    /// Whether ``appendMatchSource(_:schema:into:)`` reads the matches lazily, in id order, so
    /// that a page in no order or by id reads it and stops at its rows (SQLite). False by
    /// default: a page by id compiles its predicate as any other, and a page in no order is
    /// written by ``appendUnorderedMatchPage(into:_:)``.
    var streamsMatchSource: Bool { get }
    /// Appends a page of full-text matches in no order, for an engine that does not stream its
    /// match source: `appendQuery` writes the page's `SELECT … FROM … WHERE …`, the caller its
    /// LIMIT and OFFSET after what this appends. By default the query itself.
    ///
    /// ```swift
    /// // PostgreSQL: WITH catalogue_matches AS MATERIALIZED (SELECT … WHERE product.words @@ …)
    /// //             SELECT * FROM catalogue_matches LIMIT $2 OFFSET $3
    /// try dialect.appendUnorderedMatchPage(into: &sql) { sql in sql.append("SELECT …") }
    /// ```
    func appendUnorderedMatchPage(into sql: inout SQLBuilder, _ appendQuery: (inout SQLBuilder) throws -> Void) throws
    /// Appends "the record `id` matches the full-text `pattern`" for a statement that reads rows
    /// in another index's order and stops at its page, so few rows are checked: an engine may
    /// check each row rather than collect every match first. `table`, when not nil, is a count
    /// of the same pattern's matches in the statement's `WITH` clause
    /// (``appendMatchCountTable(named:_:schema:stoppingAfter:into:)``): an engine that collects
    /// the matches to check rows may take them from there. By default
    /// ``appendFullTextMatch(_:schema:into:)``.
    ///
    /// ```swift
    /// // SQLite, for a prefix it does not check row by row:
    /// // catalogue_in_matches(product.id, 'product_fts', ?, (SELECT collected FROM catalogue_match_count))
    /// try dialect.appendFullTextCheck(pattern, schema: Product.schema, countedIn: "catalogue_match_count", into: &sql)
    /// ```
    func appendFullTextCheck(_ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder) throws
    /// Appends "the record `id` matches the full-text `pattern`" for a statement that reads
    /// many rows in another index's order and stops at its page: the matches are collected
    /// once, and each row looked up among them, without the engine reading the matches' rows
    /// instead; taken from the count `table` where the engine collects them there
    /// (``appendFullTextCheck(_:schema:countedIn:into:)``). By default
    /// ``appendFullTextMatch(_:schema:into:)``.
    func appendCollectedFullTextCheck(
        _ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder
    ) throws
    /// Appends a common table expression for a statement's `WITH` clause, `name AS …`, with a
    /// column `matches`: how many records match the full-text `pattern`, counted through the
    /// full-text index alone, exactly below `limit` and at least `limit` otherwise. The
    /// statement's row checks of the same pattern name the table
    /// (``appendFullTextCheck(_:schema:countedIn:into:)``), so an engine that collects the
    /// matches for its checks may collect them here, once for the count and every check (SQLite
    /// then counts every match). By default ``appendCountingMatchCountTable(named:_:schema:stoppingAfter:into:)``.
    ///
    /// ```swift
    /// // SQLite: catalogue_match_count_set AS MATERIALIZED (SELECT catalogue_collect_matches('product_fts', ?) AS collected),
    /// //         catalogue_match_count AS MATERIALIZED (SELECT catalogue_collected_count(collected, 'product_fts', ?) AS matches, collected FROM catalogue_match_count_set)
    /// try dialect.appendMatchCountTable(named: "catalogue_match_count", pattern, schema: Product.schema, stoppingAfter: 50_000, into: &sql)
    /// ```
    func appendMatchCountTable(
        named name: String, _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws
    /// Appends a scalar subquery: how many records match the full-text `pattern`, counting
    /// through the full-text index alone and stopping at `limit`. By default a count of
    /// ``appendFullTextMatch(_:schema:into:)`` over the table.
    ///
    /// ```swift
    /// // SQLite: (SELECT count(*) FROM (SELECT 1 FROM product_fts WHERE product_fts MATCH ? LIMIT ?))
    /// try dialect.appendMatchCount(pattern, schema: Product.schema, stoppingAfter: 50_000, into: &sql)
    /// ```
    func appendMatchCount(_ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder) throws
    /// Appends a scalar expression that counts the records matching the full-text `pattern`
    /// (and nothing else) through the full-text index alone, without reading their rows: at
    /// most `limit`, or every match when `limit` is nil; returns true. Where the index is not a
    /// table of its own, appends nothing and returns false (the default), and the count reads
    /// the record table.
    ///
    /// ```swift
    /// // SQLite, no limit: coalesce(catalogue_known_match_count('product_fts', ?),
    /// //                            (SELECT count(*) FROM product_fts WHERE product_fts MATCH ?))
    /// let appended = try dialect.appendIndexOnlyMatchCount(pattern, schema: Product.schema, stoppingAfter: nil, into: &sql)
    /// ```
    func appendIndexOnlyMatchCount(
        _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int?, into sql: inout SQLBuilder
    ) throws -> Bool
    /// Whether relevance tiers (``RelevanceTiers``) are written as the arms of a `UNION ALL`,
    /// which the engine runs in order and stops once it has the page (SQLite), rather than as
    /// an `ORDER BY CASE …` over every match. False by default.
    var ranksTiersByUnion: Bool { get }
    /// Whether a page of `CONTAINS[cd]` matches in key order (a request with a fetch limit,
    /// sorted first by the key it compares, a text of at least ``shortestSplitContainsText``
    /// characters) is read in two parts: the first ``OrderedReadBound/limit`` keys in order,
    /// where a common text fills its page, then the matches beyond them, collected through the
    /// engine's substring index and sorted (PostgreSQL, whose `pg_trgm` index finds them). False
    /// by default: SQLite reads its key ranges instead.
    var splitsContainsPages: Bool { get }
    /// The fewest characters of a `CONTAINS[cd]` text whose pages are split
    /// (``splitsContainsPages``): 3 by default, the shortest text a trigram index finds; fewer
    /// where the engine has an index for shorter texts too.
    var shortestSplitContainsText: Int { get }
    /// The expression whose first character decides a record's section: the column itself
    /// where the engine reads the first character cheaply, else an expression for it.
    func sectionExpression(_ qualifiedColumn: String) -> String
    /// An ORDER BY term for `expression` (the `column` of `table`, or an expression over it),
    /// NULL sorting first in ascending order, last in descending order, as SQLite sorts it. By
    /// default `expression` or `expression DESC` (SQLite's own order).
    func orderTerm(_ expression: String, ascending: Bool, table: String, column: String) -> String
}

extension SQLDialect {
    public var largestPlannedConjunction: Int? { nil }

    public func appendContains(
        _ expression: String, _ needle: String, required: Bool, substringIndexed: Bool, into sql: inout SQLBuilder
    ) {
        appendContains(expression, needle, into: &sql)
    }

    public func appendMatchSource(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws -> String {
        _ = try appendRankedSource(pattern, schema: schema, into: &sql)
        return schema.qualifiedID
    }

    public func appendFullTextCheck(
        _ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder
    ) throws {
        try appendFullTextMatch(pattern, schema: schema, into: &sql)
    }

    public func appendCollectedFullTextCheck(
        _ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder
    ) throws {
        try appendFullTextMatch(pattern, schema: schema, into: &sql)
    }

    public func appendMatchCountTable(
        named name: String, _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws {
        try appendCountingMatchCountTable(named: name, pattern, schema: schema, stoppingAfter: limit, into: &sql)
    }

    /// `name AS MATERIALIZED (SELECT <the count of ``appendMatchCount(_:schema:stoppingAfter:into:)``>
    /// AS matches)`: the default ``appendMatchCountTable(named:_:schema:stoppingAfter:into:)``,
    /// which counts and collects nothing, for a dialect that writes its own where it can.
    ///
    /// ```swift
    /// try dialect.appendCountingMatchCountTable(named: "catalogue_match_count", pattern, schema: Product.schema, stoppingAfter: 50_000, into: &sql)
    /// ```
    public func appendCountingMatchCountTable(
        named name: String, _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws {
        sql.append(name)
        sql.append(" AS MATERIALIZED (SELECT ")
        try appendMatchCount(pattern, schema: schema, stoppingAfter: limit, into: &sql)
        sql.append(" AS matches)")
    }

    public func appendUnorderedMatchPage(into sql: inout SQLBuilder, _ appendQuery: (inout SQLBuilder) throws -> Void) throws {
        try appendQuery(&sql)
    }

    public func appendMatchCount(
        _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws {
        sql.append("(SELECT count(*) FROM (SELECT 1 FROM ")
        sql.append(schema.table)
        sql.append(" WHERE ")
        try appendFullTextMatch(pattern, schema: schema, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(.integer(Int64(limit)))
        sql.append(") AS catalogue_matched)")
    }

    public func appendIndexOnlyMatchCount(
        _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int?, into sql: inout SQLBuilder
    ) throws -> Bool {
        false
    }

    public var ranksTiersByUnion: Bool { false }

    public var streamsMatchSource: Bool { false }

    public var splitsContainsPages: Bool { false }

    public var shortestSplitContainsText: Int { 3 }

    public func orderTerm(_ expression: String, ascending: Bool, table: String, column: String) -> String {
        ascending ? expression : expression + " DESC"
    }
}

/// How an engine writes bound parameters.
public enum PlaceholderStyle: Sendable, Hashable {
    /// `?` for every parameter (SQLite).
    case questionMark
    /// `$1`, `$2`, … in order (PostgreSQL).
    case dollarNumbered
}
