/// Collects compiled SQL as pieces plus the arguments bound to its parameters.
///
/// The SQL text is the pieces joined; it is built once per distinct list of pieces and cached,
/// so compiling a request again with new search text (a keystroke) only walks the predicate and
/// computes arguments: no string is concatenated, and the prepared statement cached under that
/// text is re-bound. Parameters are written as the dialect says (`?`, or `$1`, `$2`, …).
///
/// ```swift
/// var sql = SQLBuilder(dialect: dialect)
/// sql.append("SELECT id FROM product WHERE year = ")
/// sql.bind(.integer(2007))
/// sql.fragment()  // "SELECT id FROM product WHERE year = ?" [2007] on SQLite, "… = $1" on PostgreSQL
/// ```
public struct SQLBuilder {
    private(set) var pieces: [String] = []
    /// The arguments, in the order of their parameters.
    public private(set) var arguments: [DatabaseValue] = []
    /// How parameters are written.
    public let placeholderStyle: PlaceholderStyle

    /// A builder writing parameters as `dialect` does.
    public init(dialect: some SQLDialect) {
        self.init(placeholderStyle: dialect.placeholderStyle)
    }

    /// A builder writing parameters in `style`.
    public init(placeholderStyle: PlaceholderStyle) {
        self.placeholderStyle = placeholderStyle
        pieces.reserveCapacity(48)
    }

    /// Appends SQL text (never user text).
    public mutating func append(_ sql: String) {
        pieces.append(sql)
    }

    /// Appends a parameter bound to `value`.
    public mutating func bind(_ value: DatabaseValue) {
        arguments.append(value)
        switch placeholderStyle {
        case .questionMark: pieces.append("?")
        case .dollarNumbered: pieces.append(Self.dollarPlaceholder(arguments.count))
        }
    }

    /// The SQL and its arguments.
    public func fragment() -> SQLFragment {
        SQLFragment(SQLTextCache.shared.text(for: pieces), arguments)
    }

    private static let dollarPlaceholders = (1...64).map { "$\($0)" }

    private static func dollarPlaceholder(_ number: Int) -> String {
        number <= dollarPlaceholders.count ? dollarPlaceholders[number - 1] : "$\(number)"
    }
}

/// The joined text of each list of SQL pieces seen, bounded: when full it starts afresh.
final class SQLTextCache: Sendable {
    static let shared = SQLTextCache()
    private let texts = Locked<[[String]: String]>([:])
    private let capacity = 512

    func text(for pieces: [String]) -> String {
        if let text = texts.withLock({ $0[pieces] }) {
            return text
        }
        let text = pieces.joined()
        texts.withLock { texts in
            if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
            texts[pieces] = text
        }
        return text
    }
}
