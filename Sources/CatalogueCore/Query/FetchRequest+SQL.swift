/// The SQL of a request, in an engine's dialect: the one place where requests become SQL.
///
/// ```swift
/// let request = CatalogueSearch.countries(matching: "bog", scope: .capital)
/// let select = try request.selectSQL(in: dialect)
/// select.sql        // "SELECT country.id, … FROM country WHERE country.capital_key >= ? AND … LIMIT ? OFFSET ?"
/// select.arguments  // ["bog", "boh", -1, 0]
/// ```
extension FetchRequest {
    /// The SELECT statement for the records (`id`, then the schema's columns), with LIMIT and
    /// OFFSET always bound, so the SQL does not change with them.
    public func selectSQL(in dialect: some SQLDialect) throws -> SQLFragment {
        try select(R.schema.selectColumns, in: dialect)
    }

    /// A SELECT of the given result columns (SQL expressions over the table, e.g. `product.id`)
    /// under this request's predicate, order, limit and offset.
    public func select(_ resultColumns: String, in dialect: some SQLDialect) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        try appendSelect(resultColumns, dialect: dialect, into: &sql)
        return sql.fragment()
    }

    /// `SELECT count(*)` of the records the predicate matches (ignoring limit and offset).
    public func countSQL(in dialect: some SQLDialect) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        if try appendIndexOnlyCount(stoppingAfter: nil, dialect: dialect, into: &sql) { return sql.fragment() }
        sql.append("SELECT count(*)")
        try appendFromWhere(dialect: dialect, into: &sql)
        return sql.fragment()
    }

    /// `SELECT count(*)` of at most `limit` matching records: the count statement stops at the
    /// `limit`-th match instead of visiting every one (for "more than 1,000 items found").
    ///
    /// ```swift
    /// let sql = try CatalogueSearch.products(matching: "a", mode: .contains).countSQL(in: dialect, stoppingAfter: 1_001)
    /// sql.sql   // "SELECT count(*) FROM (SELECT 1 FROM product WHERE instr(product.name_key, ?) > 0 LIMIT ?) AS counted"
    /// ```
    public func countSQL(in dialect: some SQLDialect, stoppingAfter limit: Int) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: dialect)
        if try appendIndexOnlyCount(stoppingAfter: limit, dialect: dialect, into: &sql) { return sql.fragment() }
        sql.append("SELECT count(*) FROM (SELECT 1")
        try appendFromWhere(dialect: dialect, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(.integer(Int64(max(0, limit))))
        sql.append(") AS counted")
        return sql.fragment()
    }

    /// `SELECT` and the dialect's count through the full-text index alone, when the predicate
    /// is a full-text match and nothing else and the dialect counts so
    /// (``SQLDialect/appendIndexOnlyMatchCount(_:schema:stoppingAfter:into:)``); false, with
    /// nothing appended, otherwise.
    private func appendIndexOnlyCount(stoppingAfter limit: Int?, dialect: some SQLDialect, into sql: inout SQLBuilder) throws -> Bool {
        guard R.schema.fullTextTable != nil, let (pattern, others) = predicate.fullTextConjunct, others.isEmpty else { return false }
        var count = SQLBuilder(dialect: dialect)
        count.append("SELECT ")
        guard try dialect.appendIndexOnlyMatchCount(pattern, schema: R.schema, stoppingAfter: limit.map { max(0, $0) }, into: &count) else {
            return false
        }
        sql = count
        return true
    }

    /// ` FROM table WHERE predicate`, the part every count and page in id order shares. When
    /// the predicate requires a full-text match, it reads the full-text index's matches and
    /// joins their rows (the dialect's match source), so a count that stops after a cap, or a
    /// page, stops reading matches too, instead of collecting every match first; it then
    /// returns the expression equal to the id by which the matches come in order.
    @discardableResult
    private func appendFromWhere(dialect: some SQLDialect, into sql: inout SQLBuilder) throws -> String? {
        let schema = R.schema
        let compiler = try PredicateCompiler(schema: schema, dialect: dialect, checking: predicate)
        sql.append(" FROM ")
        if schema.fullTextTable != nil, let (pattern, others) = predicate.fullTextConjunct {
            let matchID = try dialect.appendMatchSource(pattern, schema: schema, into: &sql)
            if !others.isEmpty {
                sql.append(" AND (")
                try compiler.compile(.and(others), into: &sql)
                sql.append(")")
            }
            return matchID
        }
        sql.append(schema.table)
        sql.append(" WHERE ")
        try compiler.compile(predicate, into: &sql)
        return nil
    }

    /// Whether the request is in no order, or in ascending id order only (the default): the
    /// order in which a full-text index gives its matches.
    private var isInIDOrder: Bool {
        sortDescriptors.isEmpty
            || sortDescriptors.count == 1 && sortDescriptors[0].column == "id" && sortDescriptors[0].ascending
    }

    /// SELECT, FROM, WHERE, ORDER BY, LIMIT and OFFSET. With a relevance sort: the tiers of
    /// ``RelevanceTiers`` when the order has a folded key to compare; otherwise the dialect
    /// writes the source and the full-text condition, so its score is available to ORDER BY.
    private func appendSelect(_ resultColumns: String, dialect: some SQLDialect, into sql: inout SQLBuilder) throws {
        guard fetchOffset >= 0, (fetchLimit ?? 0) >= 0 else {
            throw FetchRequestError.negativeLimitOrOffset(limit: fetchLimit, offset: fetchOffset)
        }
        let schema = R.schema
        let compiler = try PredicateCompiler(schema: schema, dialect: dialect, checking: predicate)
        if dialect.streamsMatchSource, schema.fullTextTable != nil, predicate.fullTextConjunct != nil, isInIDOrder {
            // The matches as the full-text index gives them (ids ascending): the page stops
            // after its rows instead of collecting every match first.
            sql.append("SELECT ")
            sql.append(resultColumns)
            if let matchID = try appendFromWhere(dialect: dialect, into: &sql), !sortDescriptors.isEmpty {
                sql.append(" ORDER BY ")
                sql.append(matchID)
            }
            appendLimitAndOffset(dialect: dialect, into: &sql)
            return
        }
        if sortDescriptors.isEmpty, schema.fullTextTable != nil, predicate.fullTextConjunct != nil {
            // In no order: the engine may read the matches through its full-text index rather
            // than scan the table for the first rows that match.
            try dialect.appendUnorderedMatchPage(into: &sql) { sql in
                appendSelectFrom(resultColumns, into: &sql)
                try compiler.compile(predicate, into: &sql)
            }
            appendLimitAndOffset(dialect: dialect, into: &sql)
            return
        }
        if let (key, longestNeedle) = splitContainsKey(dialect: dialect) {
            try appendContainsPageParts(
                key: key, boundInsideMatches: longestNeedle >= MatchMode.shortestTrigramText, resultColumns: resultColumns,
                compiler: compiler, dialect: dialect, into: &sql)
            return
        }
        guard let relevance = sortDescriptors.firstIndex(where: { $0.column == nil }) else {
            appendSelectFrom(resultColumns, into: &sql)
            try compiler.compile(predicate, into: &sql)
            try appendOrder(sortDescriptors, rankOrder: nil, dialect: dialect, into: &sql)
            appendLimitAndOffset(dialect: dialect, into: &sql)
            return
        }
        guard schema.fullTextTable != nil else { throw FetchRequestError.noFullTextTable(table: schema.table) }
        guard let (pattern, others) = predicate.fullTextConjunct else { throw FetchRequestError.relevanceWithoutFullText }
        let order = Array(sortDescriptors[sortDescriptors.index(after: relevance)...])
        if sortDescriptors[..<relevance].isEmpty, let tiers = RelevanceTiers(pattern: pattern, order: order, schema: schema) {
            if dialect.ranksTiersByUnion {
                try appendTierArms(
                    tiers, withTypos: pattern.hasTypoAlternatives, order: order, resultColumns: resultColumns,
                    compiler: compiler, dialect: dialect, into: &sql)
            } else {
                appendSelectFrom(resultColumns, into: &sql)
                try compiler.compile(predicate, into: &sql)
                sql.append(" ORDER BY ")
                if pattern.hasTypoAlternatives {
                    // Matches with typos only, after every exact match.
                    sql.append("CASE WHEN NOT (")
                    try dialect.appendFullTextMatch(pattern.exact, schema: schema, into: &sql)
                    sql.append(") THEN (CASE WHEN ")
                    tiers.appendTypoStarts(dialect: dialect, into: &sql)
                    sql.append(" THEN 3 ELSE 4 END) ELSE ")
                    tiers.appendTierExpression(dialect: dialect, into: &sql)
                    sql.append(" END")
                } else {
                    tiers.appendTierExpression(dialect: dialect, into: &sql)
                }
                try appendOrder(order, rankOrder: nil, dialect: dialect, into: &sql, continuing: true)
                appendLimitAndOffset(dialect: dialect, into: &sql)
            }
            return
        }
        sql.append("SELECT ")
        sql.append(resultColumns)
        sql.append(" FROM ")
        let rankOrder = try dialect.appendRankedSource(pattern, schema: schema, into: &sql)
        if !others.isEmpty {
            sql.append(" AND (")
            try compiler.compile(.and(others), into: &sql)
            sql.append(")")
        }
        try appendOrder(sortDescriptors, rankOrder: rankOrder, dialect: dialect, into: &sql)
        appendLimitAndOffset(dialect: dialect, into: &sql)
    }

    /// The arms of the tiers, in order (see ``RelevanceTiers``).
    private enum TierArm {
        /// Tier 1: the key is the text, or the text and a space begin it.
        case wholeWords
        /// Tier 2: the text begins the key.
        case prefix
        /// Tier 3: every other exact match, within or beyond the ordered read's bound.
        case otherExact(OrderedReadPart)
        /// Tier 4, one arm per word: a word the first typed word may mean begins the key.
        case typoStart(String)
        /// Tier 5: every other match with typos, within or beyond the ordered read's bound.
        case otherTypos(OrderedReadPart)
    }

    /// The two parts of a tier that may hold matches anywhere in display order: the first
    /// ``RelevanceTiers/orderedReadLimit`` keys, read in order and checked row by row (enough
    /// when matches are not rare: the page fills and the second part never starts), and the
    /// keys after them, whose matches are collected and sorted.
    private enum OrderedReadPart: CaseIterable {
        /// The keys that are NULL: first in display order.
        case nulls
        case within
        case beyond
    }

    /// The tiers as arms of a `UNION ALL`, each reading its part in display order and stopping
    /// at the page's end (`offset + limit` rows), the whole limited again: the engine runs the
    /// arms in order and does not start one once it has the page. `withTypos`: the first three
    /// arms match the pattern exactly, and the matches with typos only follow. `compiler` is the
    /// request's, checked once (``FetchPredicate/maximumNestingDepth``); each arm sets its own
    /// full-text check on a copy.
    ///
    /// `WITH catalogue_match_count AS MATERIALIZED (SELECT <the exact matches, counted to 50,000>
    /// AS matches) (or as the dialect writes it, ``SQLDialect/appendMatchCountTable(named:_:schema:stoppingAfter:into:)``),
    /// catalogue_bound AS MATERIALIZED (SELECT <the ordered read's bound> AS bound)
    /// [, catalogue_typo_match_count …, catalogue_typo_bound …] SELECT * FROM (SELECT * FROM
    /// (<tier 1> LIMIT n) UNION ALL SELECT * FROM (<tier 2> LIMIT n) UNION ALL SELECT * FROM
    /// (<tier 3, first keys> LIMIT CASE WHEN <matches> > 0 THEN n ELSE 0 END) …) LIMIT ? OFFSET ?`
    private func appendTierArms(
        _ tiers: RelevanceTiers, withTypos: Bool, order: [FetchSortDescriptor], resultColumns: String,
        compiler checkedCompiler: PredicateCompiler, dialect: some SQLDialect, into sql: inout SQLBuilder
    ) throws {
        let schema = R.schema
        let armLimit: DatabaseValue = pageEnd.map { .integer(Int64($0)) } ?? dialect.unlimited
        let exactPredicate = withTypos ? predicate.mappingFullText(\.exact) : predicate
        var arms: [TierArm] = [.wholeWords, .prefix] + OrderedReadPart.allCases.map(TierArm.otherExact)
        if withTypos { arms += tiers.typoStarts.map(TierArm.typoStart) + OrderedReadPart.allCases.map(TierArm.otherTypos) }
        guard let (pattern, others) = predicate.fullTextConjunct else { throw FetchRequestError.relevanceWithoutFullText }
        func appendNotExact() throws {
            sql.append("NOT (")
            try dialect.appendFullTextMatch(pattern.exact, schema: schema, into: &sql)
            sql.append(")")
        }
        // The ordered read's bound, computed once for the parts within and beyond it, and only
        // when a part reads it: the engine materializes a common table expression when it is
        // first read, so a page the first tiers fill never counts the matches for the bound's
        // density. The exact matches' tier counts them; the tier of matches with typos has a
        // bound of its own, counted with its typos ("kettel" has no exact match, and as many
        // "kettle" as "lamp" has matches). Each count is a table of its own, which the exact
        // tier also reads before its ordered read, to start none when nothing matches.
        // The arms' row checks name their count's table: an engine that collects the matches
        // to check rows (SQLite) collects them there once, for the count and every arm.
        let bound = OrderedReadBound(keyExpression: tiers.keyExpression, schema: schema, dialect: dialect)
        let exactCountTable = "catalogue_match_count"
        let typoCountTable = "catalogue_typo_match_count"
        sql.append("WITH ")
        try tiers.appendDensityCountTable(named: exactCountTable, of: pattern.exact, schema: schema, dialect: dialect, into: &sql)
        sql.append(", catalogue_bound AS MATERIALIZED (SELECT ")
        let exactCount = "(SELECT matches FROM \(exactCountTable))"
        tiers.appendOrderedReadBoundValue(schema: schema, matchCount: exactCount, dialect: dialect, into: &sql)
        sql.append(" AS bound)")
        if withTypos {
            sql.append(", ")
            try tiers.appendDensityCountTable(named: typoCountTable, of: pattern, schema: schema, dialect: dialect, into: &sql)
            sql.append(", catalogue_typo_bound AS MATERIALIZED (SELECT ")
            tiers.appendOrderedReadBoundValue(
                schema: schema, matchCount: "(SELECT matches FROM \(typoCountTable))", dialect: dialect, into: &sql)
            sql.append(" AS bound)")
        }
        sql.append(" SELECT * FROM (")
        for (index, arm) in arms.enumerated() {
            if index > 0 { sql.append(" UNION ALL ") }
            sql.append("SELECT * FROM (")
            appendSelectFrom(resultColumns, into: &sql)
            sql.append("(")
            // The arms that read a range of the key's index in order stop at the page: each
            // row's full-text match is checked (a tier's first keys too, up to a bound). The
            // arms beyond the bound collect the matches and sort them: their cost grows with
            // the matches, never with where they lie in name order.
            // The bound moves further when the tier's matches are dense (common words): reading
            // on in order then finds the page sooner than looking up every match beyond it.
            var compiler = checkedCompiler
            switch arm {
            case .wholeWords, .prefix, .otherExact: compiler.matchCountTable = exactCountTable
            case .typoStart, .otherTypos: compiler.matchCountTable = typoCountTable
            }
            // The exact tier's ordered read starts only when the exact text matches.
            var readsOnlyIfMatched = false
            func appendPart(_ part: OrderedReadPart, boundedBy boundTable: String) {
                sql.append(") AND (")
                switch part {
                case .nulls:
                    sql.append(tiers.keyExpression)
                    sql.append(" IS NULL")
                    compiler.fullTextCheck = .collectedPerRow
                case .within, .beyond:
                    bound.appendComparison(within: part == .within, to: "(SELECT bound FROM \(boundTable))", into: &sql)
                    compiler.fullTextCheck = part == .within ? .collectedPerRow : .match
                }
            }
            switch arm {
            case .wholeWords:
                tiers.appendWholeWords(into: &sql)
                compiler.fullTextCheck = .perRow
            case .prefix:
                tiers.appendPrefix(dialect: dialect, into: &sql)
                sql.append(") AND NOT (")
                tiers.appendWholeWords(into: &sql)
                compiler.fullTextCheck = .perRow
            case .otherExact(let part):
                if part == .nulls {
                    sql.append(dialect.trueCondition)
                } else {
                    sql.append("NOT (")
                    tiers.appendPrefix(dialect: dialect, into: &sql)
                    sql.append(")")
                }
                appendPart(part, boundedBy: "catalogue_bound")
                readsOnlyIfMatched = part == .within
            case .typoStart(let start):
                tiers.appendWholeWords(start, into: &sql)
                sql.append(") AND (")
                try appendNotExact()
                // One word and no other condition: every name that begins with the word meant
                // matches, so the read stops at the page, and the dialect may check each row
                // instead of collecting every match first (166,000 for "montreal" at 10,000,000
                // rows). With more words or conditions (a product type), the names read may
                // rarely match, and checking each of them would cost more than collecting.
                compiler.fullTextCheck = pattern.words.count == 1 && others.isEmpty ? .perRow : .collectedPerRow
            case .otherTypos(let part):
                try appendNotExact()
                sql.append(" AND (")
                sql.append(tiers.keyExpression)
                sql.append(" IS NULL OR NOT ")
                tiers.appendTypoStarts(dialect: dialect, into: &sql)
                sql.append(")")
                appendPart(part, boundedBy: "catalogue_typo_bound")
            }
            sql.append(") AND (")
            switch arm {
            case .wholeWords, .prefix, .otherExact: try compiler.compile(exactPredicate, into: &sql)
            case .typoStart, .otherTypos: try compiler.compile(predicate, into: &sql)
            }
            sql.append(")")
            try appendOrder(order, rankOrder: nil, dialect: dialect, into: &sql)
            sql.append(" LIMIT ")
            if readsOnlyIfMatched {
                // With a limit of 0 the engine starts no read: a text that matches nothing
                // exactly (a word that is nowhere; in fuzzy mode, any word with a typo) neither
                // computes the bound nor reads the keys up to it (20,000 at 1,000,000 rows). The
                // typo tier's words come from the index's vocabulary, so it has matches.
                sql.append("CASE WHEN ")
                sql.append(exactCount)
                sql.append(" > 0 THEN ")
                sql.bind(armLimit)
                sql.append(" ELSE 0 END")
            } else {
                sql.bind(armLimit)
            }
            sql.append(")")
        }
        sql.append(")")
        appendLimitAndOffset(dialect: dialect, into: &sql)
    }

    /// The qualified key a page of CONTAINS matches reads in two parts
    /// (``SQLDialect/splitsContainsPages``), and the length of the longest text compared with
    /// it: the key of the first sort descriptor, ascending and folded, which a required
    /// `CONTAINS[cd]` of at least ``SQLDialect/shortestSplitContainsText`` characters compares.
    /// Nil when the dialect does not split pages, or the request is not such a page.
    private func splitContainsKey(dialect: some SQLDialect) -> (key: String, longestNeedle: Int)? {
        let schema = R.schema
        guard dialect.splitsContainsPages, fetchLimit != nil, predicate.fullTextConjunct == nil,
              let first = sortDescriptors.first, let column = first.column, first.ascending,
              first.options == .caseAndDiacriticInsensitive,
              let key = schema.keyColumn(for: column), let qualified = schema.qualifiedColumns[key],
              let longest = predicate.requiredKeyContainsComparisons(in: schema)
                  .filter({ $0.keyColumn == qualified }).map({ $0.needle.unicodeScalars.count }).max(),
              longest >= dialect.shortestSplitContainsText
        else { return nil }
        return (qualified, longest)
    }

    /// A page of CONTAINS matches in `key` order, in two arms of a `UNION ALL` that the engine
    /// runs in order, stopping once it has the page:
    /// 1. the keys up to the ``OrderedReadBound``, read in order, each row checked: a text that
    ///    is not rare fills its page there;
    /// 2. the keys beyond it, as a materialized query (planned for every match: the substring
    ///    index, unless most rows match), sorted. Its cost grows with the matches, not with
    ///    where they lie in key order, as the ordered read's did when they cluster late.
    ///
    /// With `boundInsideMatches` false (texts of one or two characters, which no trigram
    /// lists), the bound filters the materialized matches rather than being part of their
    /// query: there PostgreSQL ANDed the bound's B-tree range (most of the keys) with the short
    /// substring index's rows, and read 980,000 index entries to do it (54 ms of the 81 ms of
    /// `mo` at 1,000,000 products; 48 ms with the bound outside). With a trigram to look up,
    /// the bound stays inside, where it measured as fast or faster (`forêt` 14.9 against 19.2 ms).
    ///
    /// A NULL key holds no text, so no part reads those. The second part's query keeps the
    /// table's name as its alias, so the result columns and the order read the same there.
    ///
    /// `SELECT * FROM (SELECT * FROM (<within> LIMIT n) AS catalogue_within UNION ALL SELECT * FROM
    /// (WITH catalogue_matches AS MATERIALIZED (SELECT t.* FROM t WHERE <beyond>) SELECT … FROM
    /// catalogue_matches AS t ORDER BY … LIMIT n) AS catalogue_beyond) AS catalogue_page LIMIT ? OFFSET ?`
    private func appendContainsPageParts(
        key: String, boundInsideMatches: Bool, resultColumns: String, compiler: PredicateCompiler, dialect: some SQLDialect,
        into sql: inout SQLBuilder
    ) throws {
        let schema = R.schema
        let bound = OrderedReadBound(keyExpression: key, schema: schema, dialect: dialect)
        let armLimit: DatabaseValue = pageEnd.map { .integer(Int64($0)) } ?? dialect.unlimited
        sql.append("SELECT * FROM (SELECT * FROM (")
        appendSelectFrom(resultColumns, into: &sql)
        sql.append("(")
        bound.append(within: true, schema: schema, into: &sql)
        sql.append(") AND (")
        try compiler.compile(predicate, into: &sql)
        sql.append(")")
        try appendOrder(sortDescriptors, rankOrder: nil, dialect: dialect, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(armLimit)
        sql.append(") AS catalogue_within UNION ALL SELECT * FROM (WITH catalogue_matches AS MATERIALIZED (SELECT ")
        sql.append(schema.table)
        sql.append(".* FROM ")
        sql.append(schema.table)
        sql.append(" WHERE (")
        if boundInsideMatches {
            bound.append(within: false, schema: schema, into: &sql)
            sql.append(") AND (")
        }
        try compiler.compile(predicate, into: &sql)
        sql.append(")) SELECT ")
        sql.append(resultColumns)
        sql.append(" FROM catalogue_matches AS ")
        sql.append(schema.table)
        if !boundInsideMatches {
            sql.append(" WHERE ")
            bound.append(within: false, schema: schema, into: &sql)
        }
        try appendOrder(sortDescriptors, rankOrder: nil, dialect: dialect, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(armLimit)
        sql.append(") AS catalogue_beyond) AS catalogue_page")
        appendLimitAndOffset(dialect: dialect, into: &sql)
    }

    /// `SELECT resultColumns FROM table WHERE `, before a condition.
    private func appendSelectFrom(_ resultColumns: String, into sql: inout SQLBuilder) {
        sql.append("SELECT ")
        sql.append(resultColumns)
        sql.append(" FROM ")
        sql.append(R.schema.table)
        sql.append(" WHERE ")
    }

    /// How many rows the page ends after (offset + limit; `Int.max` past it), nil without a limit.
    var pageEnd: Int? {
        fetchLimit.map { limit in
            let (end, overflow) = fetchOffset.addingReportingOverflow(limit)
            return overflow ? Int.max : end
        }
    }

    /// ` LIMIT ? OFFSET ?`, always bound, so the SQL does not change with them.
    private func appendLimitAndOffset(dialect: some SQLDialect, into sql: inout SQLBuilder) {
        sql.append(" LIMIT ")
        sql.bind(fetchLimit.map { .integer(Int64($0)) } ?? dialect.unlimited)
        sql.append(" OFFSET ")
        sql.bind(.integer(Int64(fetchOffset)))
    }

    /// The ORDER BY clause for `descriptors` (or, `continuing` one already begun, its next terms).
    private func appendOrder(
        _ descriptors: [FetchSortDescriptor], rankOrder: String?, dialect: some SQLDialect,
        into sql: inout SQLBuilder, continuing: Bool = false
    ) throws {
        let schema = R.schema
        for (index, descriptor) in descriptors.enumerated() {
            sql.append(index == 0 && !continuing ? " ORDER BY " : ", ")
            guard let column = descriptor.column else {
                guard let rankOrder else { throw FetchRequestError.relevanceWithoutFullText }
                sql.append(rankOrder)
                continue
            }
            let qualified = try schema.qualifiedColumn(column)
            let sorted: String
            let sortedColumn: String
            if descriptor.options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
               let qualifiedKey = schema.qualifiedColumns[key] {
                (sorted, sortedColumn) = (qualifiedKey, key)
            } else if !descriptor.options.isEmpty {
                (sorted, sortedColumn) = (try dialect.foldedExpression(qualified, options: descriptor.options), column)
            } else {
                (sorted, sortedColumn) = (qualified, column)
            }
            sql.append(dialect.orderTerm(sorted, ascending: descriptor.ascending, table: schema.table, column: sortedColumn))
        }
        // Rows that tie on every descriptor come in id order, on every engine: SQLite read ties
        // in the order of the index it sorted by (its rowid last), PostgreSQL in any order.
        if !descriptors.isEmpty, !descriptors.contains(where: { $0.column == "id" }) {
            sql.append(", ")
            sql.append(dialect.orderTerm(schema.qualifiedID, ascending: true, table: schema.table, column: "id"))
        }
    }
}
