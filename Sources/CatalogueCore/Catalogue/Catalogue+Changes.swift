extension Catalogue {
    /// The changes committed to the catalogue, as they happen: writes through this catalogue
    /// the moment they commit (with the ids of the rows they changed), and writes by other
    /// connections, processes or machines as the engine learns of them (SQLite: by checking
    /// every `pollingInterval`; PostgreSQL: at once, by notification). No controller needed.
    ///
    /// ```swift
    /// for try await change in catalogue.changes() {
    ///     if change.affects(Product.self) { await reloadProducts() }
    /// }
    /// ```
    ///
    /// The stream ends when the task iterating it is cancelled.
    public func changes(pollingInterval: Duration = .milliseconds(100)) -> AsyncThrowingStream<DatabaseChange, any Error> {
        engine.changes(pollingInterval: pollingInterval)
    }
}
