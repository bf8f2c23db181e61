/// Relevance, the way search engines rank what a user types: in tiers over the display key,
/// each tier in display order.
///
/// For words typed `w1 … wn` (folded and joined by spaces: the text `t`), on the key of the
/// request's first ordered column (the folded name; the folded capital in the capital scope):
/// 1. **whole words first**: the key is `t`, or starts with `t` and a space ("new" → New
///    Caledonia, New Zealand);
/// 2. **then names that start with the text**: `t` ends inside a word ("united ki" → United
///    Kingdom; "new" → Newfoundland);
/// 3. **then every other match**: a later word of the name, an alias or another column holds
///    the words ("new" → Papua New Guinea).
///
/// With typos forgiven (``MatchMode/fuzzy``), those three tiers hold the exact matches, and two
/// more follow for the matches with typos only:
/// 4. **names that begin with a word the first typed word may mean**, whole ("cahteau" →
///    Château 12); read as one range of the key's index per such word, in order;
/// 5. **every other match with typos**.
///
/// Nothing is scored: the first two tiers (and the fourth) are ranges of the key's index, read
/// in order, so a page of a one-letter search stops after 50 rows instead of scoring every
/// match (bm25 over 220,885 products took 170 ms for `c`). Engines write the tiers as arms of a
/// `UNION ALL` evaluated in order (SQLite) or as one `ORDER BY CASE …` (PostgreSQL); the order
/// is the same.
///
/// ```swift
/// let tiers = RelevanceTiers(pattern: FullTextPattern(matchingAllPrefixesIn: "New")!, order: FetchSortDescriptor.byName, schema: Country.schema)
/// tiers?.text          // "new"
/// tiers?.keyExpression // "country.name_key"
/// ```
public struct RelevanceTiers: Sendable, Hashable {
    /// The qualified key column the tiers compare (`country.name_key`).
    public let keyExpression: String
    /// The typed words, folded, joined by single spaces.
    public let text: String
    /// The words the first typed word may mean with typos (its ``FullTextPattern/typoAlternatives``),
    /// in ascending order: tier 4 holds the names that begin with one of them.
    public let typoStarts: [String]

    /// The tiers for `pattern` over the first column of `order`, when that column is sorted
    /// ascending by its folded key; nil otherwise (then relevance falls back to the engine's
    /// score).
    public init?(pattern: FullTextPattern, order: [FetchSortDescriptor], schema: RecordSchema) {
        guard let first = order.first, let column = first.column, first.ascending,
              first.options == .caseAndDiacriticInsensitive,
              let key = schema.keyColumn(for: column), let qualified = schema.qualifiedColumns[key]
        else { return nil }
        keyExpression = qualified
        text = Folding.fold(pattern.words.joined(separator: " "))
        // In the keys' order: bytewise, as both engines compare keys.
        typoStarts = (pattern.typoAlternatives?.first ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Appends "the key is the text, or the text and a space begin it" (tier 1): one range of
    /// the key's index, `[t, t + "!")`, less the keys where a control character follows `t`.
    /// With `text`, the same for that text (tier 4: a word of ``typoStarts``).
    public func appendWholeWords(_ text: String? = nil, into sql: inout SQLBuilder) {
        let text = text ?? self.text
        sql.append(keyExpression)
        sql.append(" >= ")
        sql.bind(.text(text))
        sql.append(" AND ")
        sql.append(keyExpression)
        sql.append(" < ")
        sql.bind(.text(text + "!"))
        sql.append(" AND (")
        sql.append(keyExpression)
        sql.append(" = ")
        sql.bind(.text(text))
        sql.append(" OR ")
        sql.append(keyExpression)
        sql.append(" >= ")
        sql.bind(.text(text + " "))
        sql.append(")")
    }

    /// Appends "the text begins the key" (tiers 1 and 2).
    public func appendPrefix(dialect: some SQLDialect, into sql: inout SQLBuilder) {
        dialect.appendPrefixRange(keyExpression, prefix: text, into: &sql)
    }

    /// Appends `CASE WHEN <whole words> THEN 0 WHEN <prefix> THEN 1 ELSE 2 END`: the tier of a
    /// row, for engines that sort every match.
    public func appendTierExpression(dialect: some SQLDialect, into sql: inout SQLBuilder) {
        sql.append("CASE WHEN ")
        appendWholeWords(into: &sql)
        sql.append(" THEN 0 WHEN ")
        appendPrefix(dialect: dialect, into: &sql)
        sql.append(" THEN 1 ELSE 2 END")
    }

    /// How many keys, in display order, a tier that may hold matches anywhere (3 and 5) reads
    /// in order, checking each row, before it collects and sorts the matches after them
    /// (``OrderedReadBound/limit``).
    public static let orderedReadLimit = OrderedReadBound.limit

    /// Appends `name AS …`, a common table expression whose column `matches` is how many
    /// records match `pattern`, counted by the dialect through the full-text index, exactly
    /// below ``OrderedReadBound/denseMatches`` (``SQLDialect/appendMatchCountTable(named:_:schema:stoppingAfter:into:)``):
    /// what the bound of a tier's ordered read is chosen by
    /// (``appendOrderedReadBoundValue(schema:matchCount:dialect:into:)``), and whether the tier has a
    /// match at all. A statement computes it once, for every part that reads it; the tier's row
    /// checks name the table, and may take the matches the dialect collected there.
    ///
    /// ```swift
    /// sql.append("WITH ")
    /// try tiers.appendDensityCountTable(named: "catalogue_match_count", of: pattern, schema: Product.schema, dialect: dialect, into: &sql)
    /// ```
    public func appendDensityCountTable(
        named name: String, of pattern: FullTextPattern, schema: RecordSchema, dialect: some SQLDialect, into sql: inout SQLBuilder
    ) throws {
        try dialect.appendMatchCountTable(
            named: name, pattern, schema: schema, stoppingAfter: OrderedReadBound.denseMatches, into: &sql)
    }

    /// Appends the bound of the third tier's ordered read (``OrderedReadBound``): the
    /// ``orderedReadLimit``-th key that is not NULL in display order, moved to the
    /// ``OrderedReadBound/denseLimit``-th when `matchCount`, an SQL expression reading the
    /// `matches` of the tier's ``appendDensityCountTable(named:of:schema:dialect:into:)``, is at least
    /// ``OrderedReadBound/denseMatches``: common words then read on in order rather than look up
    /// and sort every match beyond the first keys. A statement computes it once, for every part
    /// that compares with it.
    ///
    /// ```swift
    /// tiers.appendOrderedReadBoundValue(
    ///     schema: Product.schema, matchCount: "(SELECT matches FROM catalogue_match_count)", dialect: dialect, into: &sql)
    /// // "coalesce((SELECT product.name_key FROM product … OFFSET CASE WHEN (SELECT matches FROM catalogue_match_count) >= ? THEN ? ELSE ? END), …)"
    /// ```
    public func appendOrderedReadBoundValue(
        schema: RecordSchema, matchCount: String, dialect: some SQLDialect, into sql: inout SQLBuilder
    ) {
        OrderedReadBound(keyExpression: keyExpression, schema: schema, dialect: dialect).appendValue(schema: schema, denseWhen: { sql in
            sql.append(matchCount)
            sql.append(" >= ")
            sql.bind(.integer(Int64(OrderedReadBound.denseMatches)))
        }, into: &sql)
    }

    /// Appends "the key begins with a word of ``typoStarts``, whole" (tier 4), `FALSE`-like
    /// when there is none.
    public func appendTypoStarts(dialect: some SQLDialect, into sql: inout SQLBuilder) {
        guard !typoStarts.isEmpty else {
            sql.append(dialect.falseCondition)
            return
        }
        sql.append("(")
        for (index, start) in typoStarts.enumerated() {
            if index > 0 { sql.append(" OR ") }
            sql.append("(")
            appendWholeWords(start, into: &sql)
            sql.append(")")
        }
        sql.append(")")
    }
}
