#if Server
import CatalogueCore
import Dispatch

/// Runs imports off the server's threads. The catalogue's import is synchronous (it holds the
/// write lock and reads its input as it goes), so it runs on a queue of its own: never on an
/// event loop nor on Swift's cooperative pool. One at a time, as the engine writes them anyway.
///
/// ```swift
/// let counts = try await ImportRunner().run { try catalogue.importRecords(Product.self, from: input, options: options) }
/// ```
struct ImportRunner: Sendable {
    private let queue = DispatchQueue(label: "catalogue.serve.import")

    /// Runs `body` on the import queue and returns what it returns.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
#endif
