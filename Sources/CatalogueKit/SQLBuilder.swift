
/// Collects compiled SQL as pieces plus the arguments bound to its `?`s.
///
/// The SQL text is the pieces joined; it is built once per distinct list of pieces and cached,
/// so compiling a request again with new search text (a keystroke) only walks the predicate and
/// computes arguments: no string is concatenated, and the prepared statement cached under that
/// text is re-bound.
struct SQLBuilder {
    private(set) var pieces: [String] = []
    private(set) var arguments: [DatabaseValue] = []

    init() {
        pieces.reserveCapacity(48)
    }

    /// Appends SQL text (never user text).
    mutating func append(_ sql: String) {
        pieces.append(sql)
    }

    /// Appends a fragment's SQL and arguments.
    mutating func append(_ fragment: SQLFragment) {
        pieces.append(fragment.sql)
        arguments += fragment.arguments
    }

    /// Appends a `?` bound to `value`.
    mutating func bind(_ value: DatabaseValue) {
        pieces.append("?")
        arguments.append(value)
    }

    /// The SQL and its arguments.
    func fragment() -> SQLFragment {
        SQLFragment(SQLTextCache.shared.text(for: pieces), arguments)
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
