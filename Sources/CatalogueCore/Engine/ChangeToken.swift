/// One state of a catalogue's data, as an engine identifies it: two tokens differ when a write
/// was committed in between (by this process or another). Opaque; compare with `==`.
///
/// ```swift
/// let before = try catalogue.engine.changeToken()
/// try catalogue.write { db in try db.insert(Product(name: "Brio", type: "toy")) }
/// try catalogue.engine.changeToken() != before  // true
/// ```
public struct ChangeToken: Sendable, Hashable {
    /// The engine's counters (SQLite: a data version; PostgreSQL: a change sequence).
    public let components: [Int64]

    /// A token of the given counters.
    ///
    /// ```swift
    /// ChangeToken(7) == ChangeToken(components: [7])  // true
    /// ```
    public init(_ components: Int64...) {
        self.components = components
    }

    /// A token of the counters in `components`, in order.
    public init(components: [Int64]) {
        self.components = components
    }
}
