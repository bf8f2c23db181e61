/// Where a catalogue's records live: the seam between CatalogueKit and a database engine.
///
/// CatalogueKit's records, requests, searches, sections, imports and exports are written once
/// against this protocol; each engine implements it in its own module: SQLite (the embedded
/// default, `CatalogueSQLite`) and PostgreSQL (`CataloguePostgres`). A ``Catalogue`` wraps one.
///
/// The methods block the calling thread until the engine answers, as SQLite's C API does; the
/// catalogue's `async` methods run them off the caller's thread. An engine is `Sendable`: it
/// serializes or pools its connections itself.
///
/// ```swift
/// let engine: any CatalogueEngine = catalogue.engine
/// let count = try engine.reading { db in try db.fetchCount(FetchRequest<Country>()) }  // 250
/// ```
public protocol CatalogueEngine: AnyObject, Sendable {
    /// The engine's name for messages: "SQLite", "PostgreSQL".
    var name: String { get }
    /// Where the data is, for messages: a file path, or a server address without a password.
    var location: String { get }

    /// Runs `body` in one read transaction: every statement sees the same snapshot.
    func read<T>(_ body: (any CatalogueReading) throws -> T) throws -> T
    /// Runs `body` on a reading connection without a transaction: each statement sees the last
    /// commit. The cheapest path, for one statement per call (a keystroke's page).
    func reading<T>(_ body: (any CatalogueReading) throws -> T) throws -> T
    /// Runs `body` in a write transaction: all of it lands, or none of it when it throws.
    func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T
    /// Imports the records of a file in one transaction of its own (see
    /// ``Catalogue/importRecords(_:from:options:progress:skipped:)-hqp``).
    func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts

    /// The state of the data now: a different token after any commit, by this process or
    /// another. Read it before reading the data it stands for.
    func changeToken() throws -> ChangeToken
    /// What changes, as it happens: writes through this engine as they commit, others as the
    /// engine learns of them (PostgreSQL: at once, by notification; SQLite: by checking every
    /// `pollingInterval`). Ends when the iterating task is cancelled.
    func changes(pollingInterval: Duration) -> AsyncThrowingStream<DatabaseChange, any Error>
    /// Releases what memory caches hold (cached statements, pages), as an app does on a memory
    /// warning.
    func purgeCaches() throws
}
