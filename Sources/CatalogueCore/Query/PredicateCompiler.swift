import Foundation

/// Compiles a ``FetchPredicate`` into an SQL condition on one record table, in an engine's
/// dialect.
///
/// The only place where predicates become SQL. Column names are checked against the schema
/// (so a `%K` from user input cannot inject SQL); every value is a bound argument. What differs
/// per engine (CONTAINS, ENDSWITH, folding a column without a key, full-text match) is asked of
/// the ``SQLDialect``.
struct PredicateCompiler {
    let schema: RecordSchema
    let dialect: any SQLDialect
    /// The texts this compiler folded: a text compared in several places (a country's name and
    /// its aliases) is folded once.
    private let foldedTexts = FoldedTexts()
    /// How a full-text condition is written: matched (the engine may read the matches' rows),
    /// or checked for each row of a statement that reads another index in order and stops at
    /// its page.
    enum FullTextCheck {
        /// ``SQLDialect/appendFullTextMatch(_:schema:into:)``.
        case match
        /// ``SQLDialect/appendFullTextCheck(_:schema:countedIn:into:)``: few rows are checked.
        case perRow
        /// ``SQLDialect/appendCollectedFullTextCheck(_:schema:countedIn:into:)``: many rows may be.
        case collectedPerRow
    }

    /// How this statement checks full-text conditions.
    var fullTextCheck = FullTextCheck.match
    /// The common table of the statement's `WITH` clause that counts its full-text condition's
    /// matches (``SQLDialect/appendMatchCountTable(named:_:schema:stoppingAfter:into:)``), which
    /// its row checks name, if it has one.
    var matchCountTable: String?

    /// Lists longer than this compile as a balanced tree of parenthesized halves: SQLite nests a
    /// chain of `a AND b AND …` one level per operand and refuses trees deeper than 1000
    /// (`SQLITE_MAX_EXPR_DEPTH`), so a search of thousands of terms needs logarithmic depth.
    static let flatListLimit = 64

    /// Appends the condition for `predicate` to `sql`, a conjunct of the statement's WHERE.
    func compile(_ predicate: FetchPredicate, into sql: inout SQLBuilder) throws {
        try compile(predicate, required: true, into: &sql)
    }

    /// Appends the condition for `predicate`; `required` when every row of the statement must
    /// meet it (a conjunct of the WHERE, of an AND that is one, or the one member of an OR), not
    /// under a NOT or among the alternatives of an OR
    /// (``SQLDialect/appendContains(_:_:required:substringIndexed:into:)``).
    private func compile(_ predicate: FetchPredicate, required: Bool, into sql: inout SQLBuilder) throws {
        switch predicate {
        case .true:
            sql.append(dialect.trueCondition)
        case .false:
            sql.append(dialect.falseCondition)
        case .and(let predicates):
            if required, let planned = dialect.largestPlannedConjunction, predicates.count > planned {
                // Every row must meet the whole AND, so NULL and FALSE both reject it: IS TRUE
                // keeps the same rows, and its operand is not planned around (see the property).
                // Checked row by row, its conditions are written in their plain forms (as not
                // required), not in those an index serves.
                try join(predicates.prefix(planned), separator: " AND ", empty: dialect.trueCondition, required: true, into: &sql)
                sql.append(" AND (")
                try join(predicates.dropFirst(planned), separator: " AND ", empty: dialect.trueCondition, required: false, into: &sql)
                sql.append(") IS TRUE")
            } else {
                try join(predicates[...], separator: " AND ", empty: dialect.trueCondition, required: required, into: &sql)
            }
        case .or(let predicates):
            try join(
                predicates[...], separator: " OR ", empty: dialect.falseCondition, required: required && predicates.count == 1,
                into: &sql)
        case .not(let inner):
            sql.append("NOT (")
            try compile(inner, required: false, into: &sql)
            sql.append(")")
        case .between(let column, let lower, let upper):
            sql.append(try schema.qualifiedColumn(column))
            sql.append(" BETWEEN ")
            sql.bind(lower)
            sql.append(" AND ")
            sql.bind(upper)
        case .in(let column, let values, let options):
            guard !values.isEmpty else {
                sql.append(dialect.falseCondition)
                return
            }
            let comparable = try self.comparable(column, options: options, for: values)
            try comparable.append(into: &sql, dialect: dialect)
            sql.append(" IN (")
            for (index, value) in values.enumerated() {
                if index > 0 { sql.append(", ") }
                sql.bind(comparable.fold(value, remembering: foldedTexts))
            }
            sql.append(")")
        case .comparison(let column, let op, let value, let options):
            // `[c]` or `[d]` prefix on a column with a `[cd]` key: every match is also a `[cd]`
            // match, so an index range on the key narrows the rows the function must check.
            if op == .beginsWith, !options.isEmpty, options != .caseAndDiacriticInsensitive,
               schema.keyColumn(for: column) != nil {
                try compile(.comparison(column: column, operator: .beginsWith, value: value,
                                        options: .caseAndDiacriticInsensitive), required: required, into: &sql)
                sql.append(" AND ")
            }
            let comparable = try self.comparable(column, options: options, for: [value])
            try compare(
                comparable, op, op == .matches ? value : comparable.fold(value, remembering: foldedTexts), required: required,
                into: &sql)
        case .anyAlias(let op, let value, let options):
            guard let aliases = schema.aliases else {
                throw FetchRequestError.noAliases(table: schema.table)
            }
            let comparable = Comparable(
                column: aliases.qualifiedNameColumn, key: aliases.qualifiedKeyColumn, options: options)
            sql.append(schema.qualifiedID)
            sql.append(aliases.subqueryPrefix)
            try compare(
                comparable, op, op == .matches ? .text(value) : comparable.fold(.text(value), remembering: foldedTexts),
                required: required, into: &sql)
            sql.append(")")
        case .fullText(let pattern):
            guard schema.fullTextTable != nil else {
                throw FetchRequestError.noFullTextTable(table: schema.table)
            }
            // The names go into the engine's query text (an FTS5 column filter): only the schema's.
            if let unknown = pattern.columns?.first(where: { !schema.fullTextColumns.contains($0) }) {
                throw FetchRequestError.unknownColumn(unknown, table: schema.table, known: schema.fullTextColumns)
            }
            switch fullTextCheck {
            case .match: try dialect.appendFullTextMatch(pattern, schema: schema, into: &sql)
            case .perRow: try dialect.appendFullTextCheck(pattern, schema: schema, countedIn: matchCountTable, into: &sql)
            case .collectedPerRow:
                try dialect.appendCollectedFullTextCheck(pattern, schema: schema, countedIn: matchCountTable, into: &sql)
            }
        case .substitution(_, let variable):
            throw FetchRequestError.unboundVariable(variable)
        }
    }

    private func join(
        _ predicates: ArraySlice<FetchPredicate>, separator: String, empty: String, required: Bool, into sql: inout SQLBuilder
    ) throws {
        guard !predicates.isEmpty else {
            sql.append(empty)
            return
        }
        if predicates.count > Self.flatListLimit {
            let middle = predicates.startIndex + predicates.count / 2
            sql.append("(")
            try join(predicates[..<middle], separator: separator, empty: empty, required: required, into: &sql)
            sql.append(")")
            sql.append(separator)
            sql.append("(")
            try join(predicates[middle...], separator: separator, empty: empty, required: required, into: &sql)
            sql.append(")")
            return
        }
        for (index, predicate) in predicates.enumerated() {
            if index > 0 { sql.append(separator) }
            sql.append("(")
            try compile(predicate, required: required, into: &sql)
            sql.append(")")
        }
    }

    /// What a comparison compares: a column, its stored key, or the column folded in the query,
    /// and how the compared values fold to match.
    struct Comparable {
        let column: String
        let key: String?
        let options: ComparisonOptions

        /// Whether the stored key column stands for the folded column.
        var usesKey: Bool {
            options == .caseAndDiacriticInsensitive && key != nil
        }

        /// The compared expression: the column, its key, or the column folded in the query.
        func expression(dialect: any SQLDialect) throws -> String {
            if options.isEmpty { return column }
            if usesKey, let key { return key }
            return try dialect.foldedExpression(column, options: options)
        }

        /// Appends the compared expression.
        func append(into sql: inout SQLBuilder, dialect: any SQLDialect) throws {
            sql.append(try expression(dialect: dialect))
        }

        /// A compared value, folded as the expression is (once per text and options).
        func fold(_ value: DatabaseValue, remembering folded: FoldedTexts) -> DatabaseValue {
            if !options.isEmpty, case .text(let text) = value { return .text(folded.fold(text, options: options)) }
            return value
        }
    }

    /// Texts folded during one compilation, by text and options.
    final class FoldedTexts {
        private var last: (text: String, options: ComparisonOptions, folded: String)?

        func fold(_ text: String, options: ComparisonOptions) -> String {
            if let last, last.options == options, last.text == text { return last.folded }
            let folded = Folding.fold(text, options: options)
            last = (text, options, folded)
            return folded
        }
    }

    /// The comparable for `column` under `options`.
    private func comparable(_ column: String, options: ComparisonOptions, for values: [DatabaseValue]) throws -> Comparable {
        let qualifiedColumn = try schema.qualifiedColumn(column)
        // Options only matter for text; numbers compare as they are.
        let comparesText = values.contains { if case .text = $0 { return true } else { return false } }
        guard comparesText, !options.isEmpty else {
            return Comparable(column: qualifiedColumn, key: nil, options: [])
        }
        let key = schema.keyColumn(for: column).flatMap { schema.qualifiedColumns[$0] }
        return Comparable(column: qualifiedColumn, key: key, options: options)
    }

    private func compare(
        _ comparable: Comparable, _ op: ComparisonOperator, _ value: DatabaseValue, required: Bool, into sql: inout SQLBuilder
    ) throws {
        switch op {
        case .equal, .notEqual:
            try comparable.append(into: &sql, dialect: dialect)
            if value.isNull {
                sql.append(op == .equal ? " IS NULL" : " IS NOT NULL")
            } else {
                sql.append(op == .equal ? " = " : " \(dialect.isDistinctFrom) ")
                sql.bind(value)
            }
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            try comparable.append(into: &sql, dialect: dialect)
            sql.append(" " + op.rawValue + " ")
            sql.bind(value)
        case .beginsWith:
            let prefix = try textValue(value, op)
            // A range on the (key) column: an index range scan when the column is indexed, with
            // no LIKE, so wildcards are literal and the statement never needs re-preparing.
            try withExpression(comparable, into: &sql) { expression, sql in
                dialect.appendPrefixRange(expression, prefix: prefix, into: &sql)
            }
        case .endsWith:
            let suffix = try textValue(value, op)
            guard !suffix.isEmpty else {
                // Like BEGINSWITH and CONTAINS: the empty string ends every string.
                try comparable.append(into: &sql, dialect: dialect)
                sql.append(" IS NOT NULL")
                return
            }
            try withExpression(comparable, into: &sql) { expression, sql in
                dialect.appendEndsWith(expression, suffix, into: &sql)
            }
        case .contains:
            let needle = try textValue(value, op)
            try withExpression(comparable, into: &sql) { expression, sql in
                let substringIndexed = schema.substringIndexedKey(qualified: expression) != nil
                dialect.appendContains(expression, needle, required: required, substringIndexed: substringIndexed, into: &sql)
            }
        case .like:
            let pattern = LikePattern(try textValue(value, op))
            try withExpression(comparable, into: &sql) { expression, sql in
                // Literal text first: the range of the (key) index narrows the rows to check.
                if !pattern.literalPrefix.isEmpty {
                    dialect.appendPrefixRange(expression, prefix: pattern.literalPrefix, into: &sql)
                    sql.append(" AND ")
                }
                dialect.appendLike(expression, pattern, into: &sql)
            }
        case .matches:
            // The regular expression is not folded (folding would turn `\D` into `\d`): `[c]`
            // matches case-insensitively, `[d]` drops the diacritics of the text and pattern.
            var expression = try textValue(value, op)
            if comparable.options.contains(.diacriticInsensitive) {
                expression = Folding.fold(expression, options: .diacriticInsensitive)
            }
            try RegularExpressionCheck.validate(expression)
            try dialect.appendMatches(
                column: comparable.column, key: comparable.key, expression, options: comparable.options, into: &sql)
        }
    }

    /// Calls `body` with the compared expression as SQL text.
    private func withExpression(
        _ comparable: Comparable, into sql: inout SQLBuilder, _ body: (String, inout SQLBuilder) -> Void
    ) throws {
        body(try comparable.expression(dialect: dialect), &sql)
    }

    /// The value compared: for a text operator, the value as given (`MATCHES` folds its own
    /// way), folded for the others.
    private func textValue(_ value: DatabaseValue, _ op: ComparisonOperator) throws -> String {
        guard case .text(let text) = value else {
            throw FetchRequestError.notText(op.rawValue, value)
        }
        return text
    }

    /// See ``FetchPredicate/prefixSuccessor(of:)``.
    static func successor(of prefix: String) -> String? {
        FetchPredicate.prefixSuccessor(of: prefix)
    }
}

extension FetchPredicate {
    /// The smallest string greater than every string that starts with `prefix`: `prefix` with
    /// its last scalar incremented (UTF-8 byte order is scalar order, and both engines compare
    /// keys bytewise). Nil for an empty prefix or one made only of U+10FFFF. A BEGINSWITH is the
    /// range from the prefix up to this.
    ///
    /// ```swift
    /// FetchPredicate.prefixSuccessor(of: "bog")  // "boh"
    /// ```
    public static func prefixSuccessor(of prefix: String) -> String? {
        let scalars = prefix.unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex {
            let last = scalars.index(before: end)
            var next = scalars[last].value + 1
            if next == 0xD800 { next = 0xE000 }  // skip the surrogate range
            if let scalar = Unicode.Scalar(next) {
                var successor = String(scalars[..<last])
                successor.unicodeScalars.append(scalar)
                return successor
            }
            end = last
        }
        return nil
    }
}

extension PredicateCompiler {
    /// A compiler for a request whose predicate is `predicate`, which it refuses when it nests
    /// deeper than ``FetchPredicate/maximumNestingDepth``: SQLite would fail to parse the
    /// statement ("parser stack overflow").
    init(schema: RecordSchema, dialect: any SQLDialect, checking predicate: FetchPredicate) throws {
        let depth = predicate.nestingDepth
        guard depth <= FetchPredicate.maximumNestingDepth else {
            throw FetchRequestError.nestedTooDeeply(depth: depth, limit: FetchPredicate.maximumNestingDepth)
        }
        self.init(schema: schema, dialect: dialect)
    }
}

/// A fetch request could not be compiled.
public enum FetchRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column does not exist in the record's table.
    case unknownColumn(String, table: String, known: [String])
    /// A text operator (BEGINSWITH, ENDSWITH, CONTAINS) was given a value that is not text.
    case notText(String, DatabaseValue)
    /// The record type has no alias table.
    case noAliases(table: String)
    /// The record type has no full-text table.
    case noFullTextTable(table: String)
    /// Sorting by relevance needs a full-text predicate at the top level of the request.
    case relevanceWithoutFullText
    /// The engine cannot run this part of a request.
    case unsupported(String)
    /// A substitution variable (`$TEXT`) has no value: call `withSubstitutionVariables(_:)`.
    case unboundVariable(String)
    /// A `MATCHES` pattern is not a valid regular expression.
    case invalidRegularExpression(String, reason: String)
    /// The predicate nests deeper than ``FetchPredicate/maximumNestingDepth``
    /// (``FetchPredicate/nestingDepth``).
    case nestedTooDeeply(depth: Int, limit: Int)
    /// ``FetchRequest/fetchLimit`` or ``FetchRequest/fetchOffset`` is negative.
    case negativeLimitOrOffset(limit: Int?, offset: Int)

    public var description: String {
        switch self {
        case .unknownColumn(let column, let table, let known):
            "no column \(column) in \(table); known columns: \(known.joined(separator: ", "))"
        case .notText(let op, let value):
            "\(op) needs a text value, got \(value)"
        case .noAliases(let table):
            "\(table) has no aliases"
        case .noFullTextTable(let table):
            "\(table) has no full-text index"
        case .relevanceWithoutFullText:
            "sorting by relevance needs a full-text predicate combined with AND at the top level"
        case .unsupported(let what):
            "this engine does not support \(what)"
        case .unboundVariable(let name):
            "the substitution variable $\(name) has no value (use withSubstitutionVariables)"
        case .invalidRegularExpression(let pattern, let reason):
            "MATCHES: \(String(reflecting: pattern)) is not a valid regular expression: \(reason)"
        case .nestedTooDeeply(let depth, let limit):
            "the predicate nests \(depth) levels of NOT, AND and OR; at most \(limit) are allowed"
        case .negativeLimitOrOffset(let limit, let offset):
            "fetchLimit and fetchOffset must not be negative (limit \(limit.map(String.init) ?? "none"), offset \(offset))"
        }
    }
}
