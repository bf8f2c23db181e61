import SQLiteStore

extension Connection {
    /// Runs `body` with the integer pragma `name` set to `value`, then sets it back to what it
    /// was, whether `body` returns or throws. For the settings of one connection that a bulk
    /// write changes for a while (`cache_size`, `threads`); `name` is CatalogueKit's own text,
    /// never a user's.
    ///
    /// ```swift
    /// try db.withPragma("cache_size", -2_048) {
    ///     try db.execute("CREATE INDEX product_by_year ON product (year)")
    /// }
    /// ```
    func withPragma<T>(_ name: String, _ value: Int, _ body: () throws -> T) throws -> T {
        let previous: Int = try scalar("PRAGMA \(name)") ?? 0
        try execute("PRAGMA \(name) = \(value)")
        defer { try? execute("PRAGMA \(name) = \(previous)") }
        return try body()
    }
}
