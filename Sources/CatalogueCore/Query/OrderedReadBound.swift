/// Where a read of a key's index in display order stops checking rows one by one: the
/// ``limit``-th key that is not NULL, or the largest key when there are fewer. A part of a page
/// that may find its matches anywhere in display order reads the keys up to this bound in
/// order, where matches that are not rare fill the page; the keys beyond it have their matches
/// collected and sorted, a cost that grows with the matches, never with where they lie.
///
/// Relevance tiers read their third tier so (``RelevanceTiers``), and PostgreSQL its CONTAINS
/// pages (``SQLDialect/splitsContainsPages``).
///
/// ```swift
/// var sql = SQLBuilder(dialect: dialect)
/// OrderedReadBound(keyExpression: "product.name_key", schema: Product.schema, dialect: dialect)
///     .append(within: true, schema: Product.schema, into: &sql)
/// // "product.name_key <= coalesce((SELECT product.name_key FROM product WHERE … LIMIT 1 OFFSET ?), (SELECT max(…) …))"
/// ```
public struct OrderedReadBound: Sendable, Hashable {
    /// The qualified key column read in order (`product.name_key`).
    public let keyExpression: String
    /// The ORDER BY term of that read: the term the dialect orders pages by
    /// (``SQLDialect/orderTerm(_:ascending:table:column:)``), so that the index that gives the
    /// pages their order gives this one too (`app_table.name_key NULLS FIRST` on PostgreSQL, for
    /// an app's table, whose key index sorts NULL first).
    public let orderTerm: String

    /// How many keys are read in order before the bound: about 4 ms at 1,000,000 products when
    /// the page does not fill there; a page of matches as common as one in 400 keys fills there.
    public static let limit = 20_000

    /// A bound on `keyExpression`, a key column of `schema`'s table, read in the order `dialect`
    /// writes for it.
    public init(keyExpression: String, schema: RecordSchema, dialect: some SQLDialect) {
        let prefix = schema.table + "."
        let column = keyExpression.hasPrefix(prefix) ? String(keyExpression.dropFirst(prefix.count)) : keyExpression
        self.keyExpression = keyExpression
        self.orderTerm = dialect.orderTerm(keyExpression, ascending: true, table: schema.table, column: column)
    }

    /// How many keys are read in order before the bound when the matches are dense
    /// (at least ``denseMatches``): at 10,000,000 products, the matches beyond ``limit`` keys
    /// cost a row lookup each before their sort (about 250 ms for `lamp`'s 222,756), where
    /// reading on in order finds the page among these keys (70 ms).
    public static let denseLimit = 220_000

    /// How many matches make them dense (counted through the full-text index, stopping there).
    public static let denseMatches = 50_000

    /// Appends, `within`, "the key is at most the bound", else "the key is beyond the bound"
    /// (a walk of the key's index). Neither holds a NULL key.
    public func append(within: Bool, schema: RecordSchema, into sql: inout SQLBuilder) {
        sql.append(keyExpression)
        sql.append(within ? " <= " : " > ")
        appendValue(schema: schema, into: &sql)
    }

    /// Appends, `within`, "the key is at most `value`", else "the key is beyond it": `value` is
    /// an SQL expression for the bound computed once for a statement whose parts share it (a
    /// scalar subquery of a materialized common table expression).
    ///
    /// ```swift
    /// bound.appendComparison(within: false, to: "(SELECT bound FROM catalogue_bound)", into: &sql)
    /// // "product.name_key > (SELECT bound FROM catalogue_bound)"
    /// ```
    public func appendComparison(within: Bool, to value: String, into sql: inout SQLBuilder) {
        sql.append(keyExpression)
        sql.append(within ? " <= " : " > ")
        sql.append(value)
    }

    /// Appends the bound itself: the ``limit``-th key that is not NULL, or the largest key.
    ///
    /// ```swift
    /// bound.appendValue(schema: Product.schema, into: &sql)
    /// // "coalesce((SELECT product.name_key FROM product WHERE product.name_key IS NOT NULL
    /// //  ORDER BY product.name_key LIMIT 1 OFFSET ?), (SELECT max(product.name_key) FROM product))"
    /// ```
    public func appendValue(schema: RecordSchema, into sql: inout SQLBuilder) {
        appendValue(schema: schema, into: &sql) { sql in
            sql.bind(.integer(Int64(Self.limit - 1)))
        }
    }

    /// Appends the bound at the ``denseLimit``-th key when the condition `appendDensity`
    /// appends holds (the matches are dense), else at the ``limit``-th.
    ///
    /// ```swift
    /// try bound.appendValue(schema: Product.schema, denseWhen: { $0.append("(SELECT count(*) …) >= 50000") }, into: &sql)
    /// // "coalesce((SELECT … LIMIT 1 OFFSET CASE WHEN (SELECT count(*) …) >= 50000 THEN ? ELSE ? END), (SELECT max(…) …))"
    /// ```
    public func appendValue(
        schema: RecordSchema, denseWhen appendDensity: (inout SQLBuilder) throws -> Void, into sql: inout SQLBuilder
    ) rethrows {
        try appendValue(schema: schema, into: &sql) { sql in
            sql.append("CASE WHEN ")
            try appendDensity(&sql)
            sql.append(" THEN ")
            sql.bind(.integer(Int64(Self.denseLimit - 1)))
            sql.append(" ELSE ")
            sql.bind(.integer(Int64(Self.limit - 1)))
            sql.append(" END")
        }
    }

    /// The bound, with `appendOffset` writing how many keys it skips.
    private func appendValue(
        schema: RecordSchema, into sql: inout SQLBuilder, offset appendOffset: (inout SQLBuilder) throws -> Void
    ) rethrows {
        sql.append("coalesce((SELECT ")
        sql.append(keyExpression)
        sql.append(" FROM ")
        sql.append(schema.table)
        sql.append(" WHERE ")
        sql.append(keyExpression)
        sql.append(" IS NOT NULL ORDER BY ")
        sql.append(orderTerm)
        sql.append(" LIMIT 1 OFFSET ")
        try appendOffset(&sql)
        sql.append("), (SELECT max(")
        sql.append(keyExpression)
        sql.append(") FROM ")
        sql.append(schema.table)
        sql.append("))")
    }
}
