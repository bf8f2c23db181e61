import Foundation

/// Compiles a ``FetchPredicate`` into an SQL condition on one record table.
///
/// The only place where predicates become SQL. Column names are checked against the schema
/// (so a `%K` from user input cannot inject SQL); every value is a bound argument.
struct PredicateCompiler {
    let schema: RecordSchema

    /// Lists longer than this compile as a balanced tree of parenthesized halves: SQLite nests a
    /// chain of `a AND b AND …` one level per operand and refuses trees deeper than 1000
    /// (`SQLITE_MAX_EXPR_DEPTH`), so a search of thousands of terms needs logarithmic depth.
    private static let flatListLimit = 64

    /// Appends the condition for `predicate` to `sql`.
    func compile(_ predicate: FetchPredicate, into sql: inout SQLBuilder) throws {
        switch predicate {
        case .true:
            sql.append("1")
        case .false:
            sql.append("0")
        case .and(let predicates):
            try join(predicates[...], separator: " AND ", empty: "1", into: &sql)
        case .or(let predicates):
            try join(predicates[...], separator: " OR ", empty: "0", into: &sql)
        case .not(let inner):
            sql.append("NOT (")
            try compile(inner, into: &sql)
            sql.append(")")
        case .between(let column, let lower, let upper):
            sql.append(try qualified(column))
            sql.append(" BETWEEN ")
            sql.bind(lower)
            sql.append(" AND ")
            sql.bind(upper)
        case .in(let column, let values, let options):
            guard !values.isEmpty else {
                sql.append("0")
                return
            }
            let (expression, fold) = try comparable(column, options: options, for: values)
            sql.append(expression)
            sql.append(" IN (")
            for (index, value) in values.enumerated() {
                if index > 0 { sql.append(", ") }
                sql.bind(fold(value))
            }
            sql.append(")")
        case .comparison(let column, let op, let value, let options):
            // `[c]` or `[d]` prefix on a column with a `[cd]` key: every match is also a `[cd]`
            // match, so an index range on the key narrows the rows the function must check.
            if op == .beginsWith, !options.isEmpty, options != .caseAndDiacriticInsensitive,
               schema.keyColumn(for: column) != nil {
                try compile(.comparison(column: column, operator: .beginsWith, value: value,
                                        options: .caseAndDiacriticInsensitive), into: &sql)
                sql.append(" AND ")
            }
            let (expression, fold) = try comparable(column, options: options, for: [value])
            try compare(expression, op, fold(value), into: &sql)
        case .anyAlias(let op, let value, let options):
            guard let aliases = schema.aliases else {
                throw FetchRequestError.noAliases(table: schema.table)
            }
            let (expression, fold) = comparable(
                column: SQLFragment(aliases.qualifiedNameColumn), key: SQLFragment(aliases.qualifiedKeyColumn),
                options: options)
            sql.append(schema.qualifiedID)
            sql.append(aliases.subqueryPrefix)
            try compare(expression, op, fold(.text(value)), into: &sql)
            sql.append(")")
        case .fullText(let pattern):
            guard let fts = schema.fullTextTable else {
                throw FetchRequestError.noFullTextTable(table: schema.table)
            }
            sql.append(schema.qualifiedID)
            sql.append(" IN (SELECT rowid FROM ")
            sql.append(fts)
            sql.append(" WHERE ")
            sql.append(fts)
            sql.append(" MATCH ")
            sql.bind(.text(pattern.rawPattern))
            sql.append(")")
        }
    }

    /// The predicate as a standalone fragment.
    func compile(_ predicate: FetchPredicate) throws -> SQLFragment {
        var sql = SQLBuilder()
        try compile(predicate, into: &sql)
        return sql.fragment()
    }

    private func join(
        _ predicates: ArraySlice<FetchPredicate>, separator: String, empty: String, into sql: inout SQLBuilder
    ) throws {
        guard !predicates.isEmpty else {
            sql.append(empty)
            return
        }
        if predicates.count > Self.flatListLimit {
            let middle = predicates.startIndex + predicates.count / 2
            sql.append("(")
            try join(predicates[..<middle], separator: separator, empty: empty, into: &sql)
            sql.append(")")
            sql.append(separator)
            sql.append("(")
            try join(predicates[middle...], separator: separator, empty: empty, into: &sql)
            sql.append(")")
            return
        }
        for (index, predicate) in predicates.enumerated() {
            if index > 0 { sql.append(separator) }
            sql.append("(")
            try compile(predicate, into: &sql)
            sql.append(")")
        }
    }

    /// `table.column` for a known column.
    func qualified(_ column: String) throws -> String {
        guard let qualified = schema.qualifiedColumns[column] else {
            throw FetchRequestError.unknownColumn(column, table: schema.table, known: schema.selection)
        }
        return qualified
    }

    /// The expression to compare for `column` under `options`, and how to fold the values
    /// compared with it.
    private func comparable(
        _ column: String, options: ComparisonOptions, for values: [DatabaseValue]
    ) throws -> (SQLFragment, (DatabaseValue) -> DatabaseValue) {
        let qualifiedColumn = try qualified(column)
        // Options only matter for text; numbers compare as they are.
        let comparesText = values.contains { if case .text = $0 { return true } else { return false } }
        guard comparesText, !options.isEmpty else {
            return (SQLFragment(qualifiedColumn), { $0 })
        }
        let key = schema.keyColumn(for: column).flatMap { schema.qualifiedColumns[$0] }.map { SQLFragment($0) }
        return comparable(column: SQLFragment(qualifiedColumn), key: key, options: options)
    }

    private func comparable(
        column: SQLFragment, key: SQLFragment?, options: ComparisonOptions
    ) -> (SQLFragment, (DatabaseValue) -> DatabaseValue) {
        if options.isEmpty {
            return (column, { $0 })
        }
        let fold: (DatabaseValue) -> DatabaseValue = { value in
            if case .text(let text) = value { return .text(Folding.fold(text, options: options)) }
            return value
        }
        if options == .caseAndDiacriticInsensitive, let key {
            return (key, fold)
        }
        let folded = SQLFragment(
            "\(Catalogue.foldFunctionName)(\(column.sql), ?)", column.arguments + [.integer(Int64(options.rawValue))])
        return (folded, fold)
    }

    private func compare(
        _ expression: SQLFragment, _ op: ComparisonOperator, _ value: DatabaseValue, into sql: inout SQLBuilder
    ) throws {
        switch op {
        case .equal, .notEqual:
            sql.append(expression)
            if value.isNull {
                sql.append(op == .equal ? " IS NULL" : " IS NOT NULL")
            } else {
                sql.append(op == .equal ? " = " : " IS NOT ")
                sql.bind(value)
            }
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            sql.append(expression)
            sql.append(" " + op.rawValue + " ")
            sql.bind(value)
        case .beginsWith:
            let prefix = try textValue(value, op)
            // A range on the (key) column: an index range scan when the column is indexed, with
            // no LIKE, so wildcards are literal and the statement never needs re-preparing.
            // The upper bound is always bound, so the SQL is the same whatever the text. When the
            // prefix has no successor (empty, or only U+10FFFF) it is a blob: SQLite sorts every
            // text before every blob, so the range then has no upper end.
            let upper: DatabaseValue = Self.successor(of: prefix).map { .text($0) } ?? .blob(Data([0xFF]))
            sql.append(expression)
            sql.append(" >= ")
            sql.bind(.text(prefix))
            sql.append(" AND ")
            sql.append(expression)
            sql.append(" < ")
            sql.bind(upper)
        case .endsWith:
            let suffix = try textValue(value, op)
            guard !suffix.isEmpty else {
                // Like BEGINSWITH and CONTAINS: the empty string ends every string.
                sql.append(expression)
                sql.append(" IS NOT NULL")
                return
            }
            let length = DatabaseValue.integer(Int64(suffix.unicodeScalars.count))
            sql.append("substr(")
            sql.append(expression)
            sql.append(", -")
            sql.bind(length)
            sql.append(") = ")
            sql.bind(.text(suffix))
            sql.append(" AND length(")
            sql.append(expression)
            sql.append(") >= ")
            sql.bind(length)
        case .contains:
            let needle = try textValue(value, op)
            sql.append("instr(")
            sql.append(expression)
            sql.append(", ")
            sql.bind(.text(needle))
            sql.append(") > 0")
        }
    }

    private func textValue(_ value: DatabaseValue, _ op: ComparisonOperator) throws -> String {
        guard case .text(let text) = value else {
            throw FetchRequestError.notText(op.rawValue, value)
        }
        return text
    }

    /// The smallest string greater than every string that starts with `prefix`: `prefix` with
    /// its last scalar incremented (UTF-8 byte order is scalar order). Nil for an empty prefix
    /// or one made only of U+10FFFF.
    static func successor(of prefix: String) -> String? {
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
        }
    }
}
