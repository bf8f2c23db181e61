import Dispatch

/// The `async` face of ``Catalogue``: each method runs its synchronous twin on a thread of its
/// own and resumes the caller when the engine has answered, so neither the main actor nor a
/// server's event loop ever waits on the database. Rows are decoded on that thread, off the
/// caller's actor.
///
/// The reads stop when their task is cancelled, and throw `CancellationError`: a search field
/// that starts a search at every keystroke and cancels the one before leaves no stale search
/// running. SQLite stops the running statement within about a thousand of its instructions
/// (microseconds); PostgreSQL lets the running statement end and starts no further one. A task
/// cancelled before the call reads nothing. Writes and imports, once started, run to their end,
/// all of them or none.
///
/// ```swift
/// @MainActor
/// func showResults(for text: String) async throws {
///     let results = try await catalogue.search(CatalogueSearch.countries(matching: text), limit: 50)
///     tableRows = results.records.map(\.name)
/// }
/// ```
extension Catalogue {
    /// Async form of ``read(_:)``. Stops when its task is cancelled, throwing `CancellationError`
    /// (see the extension's notes on cancellation).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogueReading) throws -> T) async throws -> T {
        try await offloadRead { try self.read(body) }
    }

    /// Async form of ``write(_:)``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CatalogueWriting) throws -> T) async throws -> T {
        try await offload { try self.write(body) }
    }

    /// Async form of ``search(_:limit:offset:count:)``. Stops when its task is cancelled,
    /// throwing `CancellationError`: cancel the search of the keystroke before.
    public func search<R: Record>(
        _ request: FetchRequest<R>, limit: Int? = nil, offset: Int? = nil, count: CountLimit = .exact
    ) async throws -> SearchResults<R> {
        try await offloadRead { try self.search(request, limit: limit, offset: offset, count: count) }
    }

    /// Async form of ``fetch(_:)``. Stops when its task is cancelled, throwing `CancellationError`.
    public func fetch<R: Record>(_ request: FetchRequest<R>) async throws -> [R] {
        try await offloadRead { try self.fetch(request) }
    }

    /// Async form of ``fetchCount(_:)``. Stops when its task is cancelled, throwing
    /// `CancellationError`.
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) async throws -> Int {
        try await offloadRead { try self.fetchCount(request) }
    }

    /// Async form of ``fetchIDs(_:)``. Stops when its task is cancelled, throwing
    /// `CancellationError`.
    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) async throws -> [Int64] {
        try await offloadRead { try self.fetchIDs(request) }
    }

    /// Async form of ``record(_:id:)``.
    public func record<R: Record>(_ type: R.Type, id: Int64) async throws -> R? {
        try await offloadRead { try self.record(type, id: id) }
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
        try await offloadRead { try self.productTypes() }
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

/// ``offload(_:)`` for a read that stops when the awaiting task is cancelled: the thread running
/// `body` holds a ``ReadCancellation`` (``ReadCancellation/current``) that the task's
/// cancellation sets and the engine looks at. A task cancelled before the call, or while the
/// read runs, gets `CancellationError`, whatever the read had done by then.
///
/// ```swift
/// let count = try await offloadRead { try catalogue.fetchCount(request) }
/// ```
package func offloadRead<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try Task.checkCancellation()
    let cancellation = ReadCancellation()
    do {
        let value = try await withTaskCancellationHandler {
            try await offload { try ReadCancellation.with(cancellation, body) }
        } onCancel: {
            cancellation.cancel()
        }
        if cancellation.isCancelled { throw CancellationError() }
        return value
    } catch {
        // The engine's own error for a stopped statement (SQLITE_INTERRUPT) says only that.
        throw cancellation.isCancelled ? CancellationError() : error
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
