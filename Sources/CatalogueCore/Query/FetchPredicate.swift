/// A condition on records, the counterpart of `NSPredicate`, compiled to SQL with bound
/// arguments.
///
/// Build one from cases and operators, or parse the format strings NSPredicate users know:
///
/// ```swift
/// let typed: FetchPredicate = .beginsWith("name", "bog", options: [.caseInsensitive, .diacriticInsensitive])
///     && .greaterThan("population", 1_000_000)
/// let parsed = try FetchPredicate(format: "%K BEGINSWITH[cd] %@ AND population > %@", "name", "bog", 1_000_000)
/// ```
///
/// String comparisons honour ``ComparisonOptions``. On a column with a stored folded key, a
/// `[cd]` comparison reads the key (and a prefix search is an index range scan); other options,
/// and columns without a key, fold in the query through a function registered on the connection.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// Compares a column with a value.
    case comparison(column: String, operator: ComparisonOperator, value: DatabaseValue, options: ComparisonOptions)
    /// `column BETWEEN lower AND upper` (inclusive).
    case between(column: String, lower: DatabaseValue, upper: DatabaseValue)
    /// `column IN (values)`.
    case `in`(column: String, values: [DatabaseValue], options: ComparisonOptions)
    /// A string comparison against the record's aliases (see ``RecordSchema/aliases``): true
    /// when any alias matches.
    case anyAlias(operator: ComparisonOperator, value: String, options: ComparisonOptions)
    /// Full-text match of the record's full-text index.
    case fullText(FullTextPattern)
    /// A comparison whose value is a substitution variable (`$TEXT` in a format string), given
    /// later with ``withSubstitutionVariables(_:)``. A request with one left fails to compile.
    case substitution(SubstitutionSite, variable: String)
    /// All of the predicates (true when empty).
    case and([FetchPredicate])
    /// Any of the predicates (false when empty).
    case or([FetchPredicate])
    /// The negation.
    case not(FetchPredicate)
    /// Always true.
    case `true`
    /// Always false.
    case `false`
}

/// How a ``FetchPredicate/comparison(column:operator:value:options:)`` compares.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// Equal (`==`); comparing with nil matches NULL, as NSPredicate does.
    case equal = "=="
    /// Not equal (`!=`); NULL differs from every value, and comparing with nil matches what is
    /// not NULL.
    case notEqual = "!="
    /// Less than (`<`).
    case lessThan = "<"
    /// Less than or equal (`<=`).
    case lessThanOrEqual = "<="
    /// Greater than (`>`).
    case greaterThan = ">"
    /// Greater than or equal (`>=`).
    case greaterThanOrEqual = ">="
    /// `BEGINSWITH`: the column's text starts with the value.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the column's text ends with the value.
    case endsWith = "ENDSWITH"
    /// `CONTAINS`: the value appears anywhere in the column's text.
    case contains = "CONTAINS"
    /// `*` matches any run of characters, `?` one character (`\*` and `\?` are literal). A
    /// pattern that starts with literal text reads the folded key's range first.
    case like = "LIKE"
    /// A regular expression the whole value must match (ICU syntax on SQLite, PostgreSQL's on
    /// PostgreSQL). Reads every row of the scope: no index serves it.
    case matches = "MATCHES"

    /// Whether the operator compares text (and needs a text value).
    public var comparesText: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}

/// Where a substitution variable stands in a ``FetchPredicate/substitution(_:variable:)``.
public enum SubstitutionSite: Sendable, Hashable {
    /// `column OPERATOR[options] $VARIABLE`.
    case comparison(column: String, operator: ComparisonOperator, options: ComparisonOptions)
    /// `column IN[options] $VARIABLE` (an array).
    case inList(column: String, options: ComparisonOptions)
    /// `ANY aliases OPERATOR[options] $VARIABLE`.
    case anyAlias(operator: ComparisonOperator, options: ComparisonOptions)
}

extension FetchPredicate {
    /// `column BEGINSWITH[options] prefix`.
    public static func beginsWith(_ column: String, _ prefix: String, options: ComparisonOptions = []) -> FetchPredicate {
        .comparison(column: column, operator: .beginsWith, value: .text(prefix), options: options)
    }

    /// `column ENDSWITH[options] suffix`.
    public static func endsWith(_ column: String, _ suffix: String, options: ComparisonOptions = []) -> FetchPredicate {
        .comparison(column: column, operator: .endsWith, value: .text(suffix), options: options)
    }

    /// `column LIKE[options] pattern`: `*` any run of characters, `?` one character.
    public static func like(_ column: String, _ pattern: String, options: ComparisonOptions = []) -> FetchPredicate {
        .comparison(column: column, operator: .like, value: .text(pattern), options: options)
    }

    /// `column MATCHES[options] regularExpression`: the whole value matches (a scan).
    public static func matches(_ column: String, _ regularExpression: String, options: ComparisonOptions = []) -> FetchPredicate {
        .comparison(column: column, operator: .matches, value: .text(regularExpression), options: options)
    }

    /// `column CONTAINS[options] text`.
    public static func contains(_ column: String, _ text: String, options: ComparisonOptions = []) -> FetchPredicate {
        .comparison(column: column, operator: .contains, value: .text(text), options: options)
    }

    /// `column == value` (`IS NULL` for nil); options apply to text.
    public static func equals(
        _ column: String, _ value: (any DatabaseValueConvertible)?, options: ComparisonOptions = []
    ) -> FetchPredicate {
        .comparison(column: column, operator: .equal, value: value?.databaseValue ?? .null, options: options)
    }

    /// `column != value`.
    public static func notEquals(
        _ column: String, _ value: (any DatabaseValueConvertible)?, options: ComparisonOptions = []
    ) -> FetchPredicate {
        .comparison(column: column, operator: .notEqual, value: value?.databaseValue ?? .null, options: options)
    }

    /// `column < value`.
    public static func lessThan(_ column: String, _ value: any DatabaseValueConvertible) -> FetchPredicate {
        .comparison(column: column, operator: .lessThan, value: value.databaseValue, options: [])
    }

    /// `column <= value`.
    public static func lessThanOrEqual(_ column: String, _ value: any DatabaseValueConvertible) -> FetchPredicate {
        .comparison(column: column, operator: .lessThanOrEqual, value: value.databaseValue, options: [])
    }

    /// `column > value`.
    public static func greaterThan(_ column: String, _ value: any DatabaseValueConvertible) -> FetchPredicate {
        .comparison(column: column, operator: .greaterThan, value: value.databaseValue, options: [])
    }

    /// `column >= value`.
    public static func greaterThanOrEqual(_ column: String, _ value: any DatabaseValueConvertible) -> FetchPredicate {
        .comparison(column: column, operator: .greaterThanOrEqual, value: value.databaseValue, options: [])
    }

    /// `column BETWEEN lower AND upper`.
    public static func between(
        _ column: String, _ lower: any DatabaseValueConvertible, _ upper: any DatabaseValueConvertible
    ) -> FetchPredicate {
        .between(column: column, lower: lower.databaseValue, upper: upper.databaseValue)
    }

    /// `column IN values`.
    public static func `in`(
        _ column: String, _ values: [any DatabaseValueConvertible], options: ComparisonOptions = []
    ) -> FetchPredicate {
        .in(column: column, values: values.map(\.databaseValue), options: options)
    }

    /// Both predicates.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        switch (lhs, rhs) {
        case (.and(let left), .and(let right)): .and(left + right)
        case (.and(let left), _): .and(left + [rhs])
        case (_, .and(let right)): .and([lhs] + right)
        default: .and([lhs, rhs])
        }
    }

    /// Either predicate.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        switch (lhs, rhs) {
        case (.or(let left), .or(let right)): .or(left + right)
        case (.or(let left), _): .or(left + [rhs])
        case (_, .or(let right)): .or([lhs] + right)
        default: .or([lhs, rhs])
        }
    }

    /// The negation.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        .not(predicate)
    }
}
