/// Compiles a ``Predicate`` into an SQL condition on one record table.
///
/// The only place where predicates become SQL. Column names are checked against the schema
/// (so a `%K` from user input cannot inject SQL); every value is a bound argument.
struct PredicateCompiler {
    let schema: RecordSchema

    /// The folding function's options argument for `options`.
    private static func foldArgument(_ options: ComparisonOptions) -> DatabaseValue {
        .integer(Int64(options.rawValue))
    }

    func compile(_ predicate: Predicate) throws -> SQLFragment {
        switch predicate {
        case .true:
            return SQLFragment("1")
        case .false:
            return SQLFragment("0")
        case .and(let predicates):
            guard !predicates.isEmpty else { return SQLFragment("1") }
            return SQLFragment.joined(try predicates.map { try compile($0).parenthesized }, separator: " AND ")
        case .or(let predicates):
            guard !predicates.isEmpty else { return SQLFragment("0") }
            return SQLFragment.joined(try predicates.map { try compile($0).parenthesized }, separator: " OR ")
        case .not(let inner):
            return SQLFragment("NOT ") + (try compile(inner)).parenthesized
        case .between(let column, let lower, let upper):
            return SQLFragment("\(try qualified(column)) BETWEEN ? AND ?", [lower, upper])
        case .in(let column, let values, let options):
            guard !values.isEmpty else { return SQLFragment("0") }
            let (expression, fold) = try comparable(column, options: options, for: values)
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return SQLFragment("\(expression.sql) IN (\(placeholders))", expression.arguments + values.map(fold))
        case .comparison(let column, let op, let value, let options):
            let (expression, fold) = try comparable(column, options: options, for: [value])
            let condition = try compare(expression, op, fold(value))
            // `[c]` or `[d]` prefix on a column with a `[cd]` key: every match is also a `[cd]`
            // match, so an index range on the key narrows the rows the function must check.
            if op == .beginsWith, !options.isEmpty, options != .caseAndDiacriticInsensitive,
               schema.keyColumn(for: column) != nil {
                let narrowing = try compile(.comparison(
                    column: column, operator: .beginsWith, value: value, options: .caseAndDiacriticInsensitive))
                return narrowing + SQLFragment(" AND ") + condition
            }
            return condition
        case .anyAlias(let op, let value, let options):
            guard let aliases = schema.aliases else {
                throw FetchRequestError.noAliases(table: schema.table)
            }
            let column = SQLFragment("\(aliases.table).\(aliases.nameColumn)")
            let key = SQLFragment("\(aliases.table).\(aliases.keyColumn)")
            let (expression, fold) = comparable(column: column, key: key, options: options)
            let condition = try compare(expression, op, fold(.text(value)))
            return SQLFragment("\(schema.table).id IN (SELECT \(aliases.table).\(aliases.recordColumn) FROM \(aliases.table) WHERE ")
                + condition + SQLFragment(")")
        case .fullText(let pattern):
            guard let fts = schema.fullTextTable else {
                throw FetchRequestError.noFullTextTable(table: schema.table)
            }
            return SQLFragment("\(schema.table).id IN (SELECT rowid FROM \(fts) WHERE \(fts) MATCH ?)", [.text(pattern.rawPattern)])
        }
    }

    /// `table.column` for a known column.
    func qualified(_ column: String) throws -> String {
        guard schema.selection.contains(column) || schema.foldedColumns.values.contains(column) else {
            throw FetchRequestError.unknownColumn(column, table: schema.table, known: schema.selection)
        }
        return "\(schema.table).\(column)"
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
        let key = schema.keyColumn(for: column).map { SQLFragment("\(schema.table).\($0)") }
        return comparable(column: SQLFragment(qualifiedColumn), key: key, options: options)
    }

    private func comparable(
        column: SQLFragment, key: SQLFragment?, options: ComparisonOptions
    ) -> (SQLFragment, (DatabaseValue) -> DatabaseValue) {
        let fold: (DatabaseValue) -> DatabaseValue = { value in
            if case .text(let text) = value { return .text(Folding.fold(text, options: options)) }
            return value
        }
        if options.isEmpty {
            return (column, { $0 })
        }
        if options == .caseAndDiacriticInsensitive, let key {
            return (key, fold)
        }
        let folded = SQLFragment("\(Catalogue.foldFunctionName)(\(column.sql), ?)", column.arguments + [Self.foldArgument(options)])
        return (folded, fold)
    }

    private func compare(_ expression: SQLFragment, _ op: ComparisonOperator, _ value: DatabaseValue) throws -> SQLFragment {
        switch op {
        case .equal:
            return value.isNull
                ? expression + SQLFragment(" IS NULL")
                : expression + SQLFragment(" = ?", [value])
        case .notEqual:
            return value.isNull
                ? expression + SQLFragment(" IS NOT NULL")
                : expression + SQLFragment(" IS NOT ?", [value])
        case .lessThan:
            return expression + SQLFragment(" < ?", [value])
        case .lessThanOrEqual:
            return expression + SQLFragment(" <= ?", [value])
        case .greaterThan:
            return expression + SQLFragment(" > ?", [value])
        case .greaterThanOrEqual:
            return expression + SQLFragment(" >= ?", [value])
        case .beginsWith:
            let prefix = try textValue(value, op)
            // A range on the (key) column: an index range scan when the column is indexed, with
            // no LIKE, so wildcards are literal and the statement never needs re-preparing.
            // The upper bound is always bound (U+10FFFF sorts after every prefix's successor for
            // an empty prefix) so the SQL is the same whatever the text.
            let upper = Self.successor(of: prefix) ?? "\u{10FFFF}\u{10FFFF}"
            return expression + SQLFragment(" >= ? AND ", [.text(prefix)]) + expression + SQLFragment(" < ?", [.text(upper)])
        case .endsWith:
            let suffix = try textValue(value, op)
            return SQLFragment("substr(") + expression + SQLFragment(", -?) = ?", [.integer(Int64(suffix.unicodeScalars.count)), .text(suffix)])
                + SQLFragment(" AND length(") + expression + SQLFragment(") >= ?", [.integer(Int64(suffix.unicodeScalars.count))])
        case .contains:
            let needle = try textValue(value, op)
            return SQLFragment("instr(") + expression + SQLFragment(", ?) > 0", [.text(needle)])
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
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }  // skip the surrogate range
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
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
