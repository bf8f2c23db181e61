/// An engine's error that can say whether the catalogue's database is out of reach for now
/// (its server is down, restarting or shutting down, or gave no connection in time), so that
/// the same call may succeed later; other failures are not mended by trying again.
///
/// `catalogue serve` answers a request that met such an error with 503 Service Unavailable
/// and `Retry-After`, not 500. PostgreSQL's `PostgresEngineError` conforms; an embedded
/// SQLite file is never out of reach in this sense.
///
/// ```swift
/// do {
///     _ = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital))
/// } catch let error as any DatabaseAvailabilityError where error.isDatabaseUnavailable {
///     print("try again shortly: \(error)")
/// }
/// ```
public protocol DatabaseAvailabilityError: Error {
    /// Whether the error says that the database could not be reached, or gave no connection
    /// in time: trying again later may succeed.
    var isDatabaseUnavailable: Bool { get }
}
