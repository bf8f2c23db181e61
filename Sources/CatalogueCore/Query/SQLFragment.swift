/// A piece of SQL with the values bound to its `?` parameters, in order.
///
/// All SQL that CatalogueKit generates is assembled from fragments, so user text only ever
/// travels as a bound argument, never inside the SQL text.
///
/// ```swift
/// var fragment = SQLFragment("name_key >= ?", [.text("bog")])
/// fragment += SQLFragment(" AND name_key < ?", [.text("boh")])
/// fragment.sql        // "name_key >= ? AND name_key < ?"
/// fragment.arguments  // [.text("bog"), .text("boh")]
/// ```
public struct SQLFragment: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with `?` for each argument.
    public var sql: String
    /// The arguments, in the order of their `?`.
    public var arguments: [DatabaseValue]

    /// SQL text and the values for its `?` parameters, in order.
    public init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Appends `other`'s SQL and arguments.
    public static func += (lhs: inout SQLFragment, rhs: SQLFragment) {
        lhs.sql += rhs.sql
        lhs.arguments += rhs.arguments
    }

    /// The concatenation of two fragments.
    public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result += rhs
        return result
    }

    /// `fragments` joined by `separator` (" AND ", ", ").
    public static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.sql += separator }
            result += fragment
        }
        return result
    }

    /// The fragment in parentheses.
    public var parenthesized: SQLFragment {
        SQLFragment("(" + sql + ")", arguments)
    }

    public var description: String {
        arguments.isEmpty ? sql : "\(sql) \(arguments)"
    }
}
