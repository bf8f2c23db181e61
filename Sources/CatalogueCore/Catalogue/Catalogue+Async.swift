import Dispatch

/// The `async` face of ``Catalogue``: each method runs its synchronous twin on a thread of its
/// own and resumes the caller when the engine has answered, so neither the main actor nor a
/// server's event loop ever waits on the database. Rows are decoded on that thread, off the
/// caller's actor.
///
/// ```swift
/// @MainActor
/// func showResults(for text: String) async throws {
///     let results = try await catalogue.search(CatalogueSearch.countries(matching: text), limit: 50)
///     tableRows = results.records.map(\.name)
/// }
/// ```
extension Catalogue {
    /// Async form of ``read(_:)``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogueReading) throws -> T) async throws -> T {
        try await offload { try self.read(body) }
    }

    /// Async form of ``write(_:)``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CatalogueWriting) throws -> T) async throws -> T {
        try await offload { try self.write(body) }
    }

    /// Async form of ``search(_:limit:offset:count:)``.
    public func search<R: Record>(
        _ request: FetchRequest<R>, limit: Int? = nil, offset: Int? = nil, count: CountLimit = .exact
    ) async throws -> SearchResults<R> {
        try await offload { try self.search(request, limit: limit, offset: offset, count: count) }
    }

    /// Async form of ``fetch(_:)``.
    public func fetch<R: Record>(_ request: FetchRequest<R>) async throws -> [R] {
        try await offload { try self.fetch(request) }
    }

    /// Async form of ``fetchCount(_:)``.
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) async throws -> Int {
        try await offload { try self.fetchCount(request) }
    }

    /// Async form of ``fetchIDs(_:)``.
    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) async throws -> [Int64] {
        try await offload { try self.fetchIDs(request) }
    }

    /// Async form of ``record(_:id:)``.
    public func record<R: Record>(_ type: R.Type, id: Int64) async throws -> R? {
        try await offload { try self.record(type, id: id) }
    }

    /// Async form of ``importRecords(_:from:options:progress:skipped:)``: the import runs on a
    /// thread of its own, which also calls `progress` and `skipped`. The input is handed over
    /// (`sending`): only the import reads it from then on.
    ///
    /// ```swift
    /// let input = try ImportInput(path: "products.csv")
    /// let counts = try await catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: .csv))
    /// ```
    @discardableResult
    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: sending ImportInput, options: ImportOptions,
        progress: (@Sendable (ImportProgress) -> Void)? = nil, skipped: (@Sendable (ImportIssue) -> Void)? = nil
    ) async throws -> ImportCounts {
        let handedOver = HandedOver(input)
        return try await offload {
            try self.importRecords(type, from: handedOver.value, options: options, progress: progress, skipped: skipped)
        }
    }

    /// Async form of ``productTypes()``.
    public func productTypes() async throws -> [String] {
        try await offload { try self.productTypes() }
    }
}

/// Runs blocking database work off the awaiting task's thread and returns its result to it.
///
/// The work goes to a private concurrent queue, not to `DispatchQueue.global()`: a global
/// queue runs no more work items at once than there are cores, so an app (or a test runner)
/// whose own blocking items fill it would stall every catalogue call behind them. A private
/// queue gets a thread of its own when the others are blocked.
///
/// ```swift
/// let count = try await offload { try catalogue.fetchCount(request) }
/// ```
package func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        blockingWorkQueue.async {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// A value handed from the caller to the thread that runs the work: the caller gave it up
/// (`sending`), so only that thread touches it.
private final class HandedOver<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: sending Value) {
        self.value = value
    }
}

/// Where ``offload(_:)`` runs blocking work.
private let blockingWorkQueue = DispatchQueue(
    label: "CatalogueKit.blocking-work", qos: .userInitiated, attributes: .concurrent)
