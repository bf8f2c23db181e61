/// A catalogue: countries, products and an app's own records, in the engine it was opened on:
/// an SQLite file (the embedded default) or a PostgreSQL database.
///
/// ```swift
/// let catalogue = try Catalogue(path: "/tmp/catalogue.sqlite")   // created, migrated, seeded
/// let results = try catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
/// results.records.first?.name  // "Colombia"
/// ```
///
/// Every method has an `async` twin that runs off the caller's thread (use those from the main
/// actor and from servers); the synchronous ones block the caller until the engine answers.
/// A `Catalogue` is `Sendable`: share one across threads and tasks.
public final class Catalogue: Sendable {
    /// The engine the records live in.
    public let engine: any CatalogueEngine
    /// Section information shared by sectioned results controllers with a cache name.
    let sectionInfoCache = SectionInfoCache()

    /// A catalogue over `engine` (engines are opened by their modules: `Catalogue(path:)` for
    /// SQLite, `Catalogue.connect(to:)` for PostgreSQL).
    public init(engine: any CatalogueEngine) {
        self.engine = engine
    }

    /// Where the data is: the database file, or the server's address (without a password).
    public var location: String {
        engine.location
    }

    /// Runs `body` in a read transaction: one consistent snapshot.
    ///
    /// ```swift
    /// let europe = try catalogue.read { db in
    ///     try db.fetch(FetchRequest<Country>(predicate: .equals("continent", "Europe")))
    /// }
    /// ```
    public func read<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        try engine.read(body)
    }

    /// Runs `body` in a write transaction: all of it lands, or none of it when it throws.
    ///
    /// ```swift
    /// try catalogue.write { db in
    ///     try db.upsert(Product(name: "iPad Air", type: "device", year: 2013, price: 499))
    /// }
    /// ```
    @discardableResult
    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        try engine.write(body)
    }

    /// Runs `request` for one page and counts its matches, in one consistent snapshot.
    /// `limit` nil uses the request's own `fetchLimit` (none: every record); `offset` nil uses
    /// its `fetchOffset`. `count` ``CountLimit/exact`` (the default) counts every match;
    /// ``CountLimit/capped(at:)`` stops counting past the cap, so a keystroke at a million rows
    /// never waits for a full count ("More than 1,000 items found").
    ///
    /// ```swift
    /// let results = try catalogue.search(CatalogueSearch.countries(matching: "sa"), limit: 5)
    /// print(results.summary)  // "12 items found"
    /// let many = try catalogue.search(CatalogueSearch.products(matching: "a", mode: .contains), limit: 50, count: .standard)
    /// print(many.summary)     // "More than 1,000 items found" (at 1M products)
    /// ```
    public func search<R: Record>(
        _ request: FetchRequest<R>, limit: Int? = nil, offset: Int? = nil, count: CountLimit = .exact
    ) throws -> SearchResults<R> {
        try read { db in try db.search(request, limit: limit, offset: offset ?? request.fetchOffset, count: count) }
    }

    /// The records `request` describes, read with one statement (its own consistent snapshot),
    /// without an explicit transaction: the per-keystroke path.
    ///
    /// ```swift
    /// var request = CatalogueSearch.products(matching: "ip")
    /// request.fetchLimit = 50
    /// let page = try catalogue.fetch(request)
    /// ```
    public func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        try engine.reading { try $0.fetch(request) }
    }

    /// How many records match `request` (limit and offset ignored), counted without loading them.
    public func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        try engine.reading { try $0.fetchCount(request) }
    }

    /// The ids of the records `request` describes, in its order.
    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64] {
        try engine.reading { try $0.fetchIDs(request) }
    }

    /// The record with `id`, if any.
    ///
    /// ```swift
    /// let iPad = try catalogue.record(Product.self, id: 4)
    /// ```
    public func record<R: Record>(_ type: R.Type, id: Int64) throws -> R? {
        try engine.reading { try $0.record(type, id: id) }
    }

    /// The distinct product types, in folded order (for scope bars and error messages).
    public func productTypes() throws -> [String] {
        try distinctValues(of: "type", in: Product.self)
    }

    /// Releases what memory caches hold, as an app does on a memory warning.
    public func purgeCaches() throws {
        try engine.purgeCaches()
    }
}
