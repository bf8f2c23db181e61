/// A connection handed to ``Catalogue/read(_:)-6oxrw`` (or an engine's `reading`): it fetches
/// records, counts and ids for requests, in the engine's dialect.
///
/// An engine implements ``dialect`` and ``forEachRow(_:_:)``; the rest has default
/// implementations built on them, which an engine replaces where it has a faster path (SQLite
/// reuses cached prepared statements).
///
/// ```swift
/// let (page, total) = try catalogue.read { db in
///     (try db.fetch(request), try db.fetchCount(request))   // one consistent snapshot
/// }
/// ```
public protocol CatalogueReading {
    /// How this connection's engine writes SQL.
    var dialect: any SQLDialect { get }
    /// Runs `query` and calls `body` with each row, in order.
    func forEachRow(_ query: SQLFragment, _ body: (any DatabaseRow) throws -> Void) throws

    /// The records `request` describes, in its order.
    func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R]
    /// The records a compiled SELECT of `R`'s columns returns (``FetchRequest/selectSQL(in:)``
    /// in this connection's dialect), in order: how a ``PreparedSearch`` runs its page.
    /// `expectedCount` (the page's limit) is how many to make room for up front.
    func fetchRecords<R: Record>(_ query: SQLFragment, as type: R.Type, expectedCount: Int) throws -> [R]
    /// How many records match the request's predicate (limit and offset ignored), counted
    /// without loading them.
    func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int
    /// How many records match the request's predicate, counting no further than `limit`.
    func fetchCount<R: Record>(_ request: FetchRequest<R>, stoppingAfter limit: Int) throws -> Int
    /// The ids of the records `request` describes, in its order.
    func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64]
    /// The record with `id`, if any.
    func record<R: Record>(_ type: R.Type, id: Int64) throws -> R?
    /// Calls `body` with the id of every record `request` describes, in its order, and the first
    /// character of `column` as stored and of its folded key (nil for NULL or empty), for
    /// computing sections without loading records. `column` must be one a predicate may name
    /// (``RecordSchema/qualifiedColumn(_:)``), else it throws ``FetchRequestError/unknownColumn(_:table:known:)``.
    func forEachSectionRow<R: Record>(
        _ request: FetchRequest<R>, column: String,
        _ body: (_ id: Int64, _ first: Unicode.Scalar?, _ foldedFirst: Unicode.Scalar?) -> Void
    ) throws
    /// The words of `schema`'s full-text index (folded, as indexed) that start with `first`,
    /// in order: where ``MatchMode/fuzzy`` finds the words a typed word may mean. Words no
    /// longer stored may be among them (they match nothing).
    func fullTextVocabulary(of schema: RecordSchema, startingWith first: String) throws -> [String]
}

extension CatalogueReading {
    public func fetchRecords<R: Record>(_ query: SQLFragment, as type: R.Type, expectedCount: Int) throws -> [R] {
        var records: [R] = []
        records.reserveCapacity(expectedCount)
        try forEachRow(query) { records.append(try R(row: $0)) }
        return records
    }

    /// The integer in the first column of `query`'s first row (0 when there is no row or it is
    /// NULL): a compiled count.
    func fetchInteger(_ query: SQLFragment) throws -> Int {
        var value: Int64?
        try forEachRow(query) { row in
            if value == nil { value = try row.decodeOptionalInteger(at: 0) ?? 0 }
        }
        return Int(value ?? 0)
    }

    public func fetch<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        let request = try resolvingTypos(in: request)
        return try fetchRecords(try request.selectSQL(in: dialect), as: R.self, expectedCount: 0)
    }

    public func fetchCount<R: Record>(_ request: FetchRequest<R>) throws -> Int {
        let request = try resolvingTypos(in: request)
        return try fetchInteger(try request.countSQL(in: dialect))
    }

    /// How many records match the request's predicate, counting no further than `limit`: the
    /// statement stops at the `limit`-th match, so the result is `min(matches, limit)`.
    ///
    /// ```swift
    /// let counted = try db.fetchCount(CatalogueSearch.products(matching: "a", mode: .contains), stoppingAfter: 1_001)
    /// print(counted > 1_000 ? "more than 1,000" : "\(counted)")
    /// ```
    public func fetchCount<R: Record>(_ request: FetchRequest<R>, stoppingAfter limit: Int) throws -> Int {
        let request = try resolvingTypos(in: request)
        return try fetchInteger(try request.countSQL(in: dialect, stoppingAfter: limit))
    }

    public func fetchIDs<R: Record>(_ request: FetchRequest<R>) throws -> [Int64] {
        let request = try resolvingTypos(in: request)
        var ids: [Int64] = []
        try forEachRow(try request.select(R.schema.qualifiedID, in: dialect)) { ids.append(try $0.decodeInteger(at: 0)) }
        return ids
    }

    public func record<R: Record>(_ type: R.Type, id: Int64) throws -> R? {
        try fetch(FetchRequest<R>(predicate: .equals("id", id), sortDescriptors: [], fetchLimit: 1)).first
    }

    public func forEachSectionRow<R: Record>(
        _ request: FetchRequest<R>, column: String,
        _ body: (_ id: Int64, _ first: Unicode.Scalar?, _ foldedFirst: Unicode.Scalar?) -> Void
    ) throws {
        let schema = R.schema
        let (qualified, qualifiedKey) = try schema.qualifiedColumnAndKey(column)
        var unlimited = try resolvingTypos(in: request)
        unlimited.fetchLimit = nil
        unlimited.fetchOffset = 0
        let columns = [schema.qualifiedID, dialect.sectionExpression(qualified), dialect.sectionExpression(qualifiedKey)]
        try forEachRow(try unlimited.select(columns.joined(separator: ", "), in: dialect)) { row in
            body(
                try row.decodeInteger(at: 0),
                try row.decodeOptionalText(at: 1)?.unicodeScalars.first,
                try row.decodeOptionalText(at: 2)?.unicodeScalars.first)
        }
    }

    /// The first record `request` describes, if any.
    public func fetchFirst<R: Record>(_ request: FetchRequest<R>) throws -> R? {
        var request = request
        request.fetchLimit = 1
        return try fetch(request).first
    }

    /// The records with these ids, in no particular order (missing ids are left out).
    public func records<R: Record>(_ type: R.Type, ids: [Int64]) throws -> [R] {
        try fetch(FetchRequest<R>(predicate: .in("id", ids), sortDescriptors: []))
    }

    /// One page of `request` and the count of its matches, exact or capped as `count` says
    /// (see ``Catalogue/search(_:limit:offset:count:)-1o0xc``).
    public func search<R: Record>(
        _ request: FetchRequest<R>, limit: Int? = 50, offset: Int = 0, count: CountLimit = .exact
    ) throws -> SearchResults<R> {
        // Typos are looked up once, for the page and its count.
        var page = try resolvingTypos(in: request)
        if let limit { page.fetchLimit = limit }
        page.fetchOffset = offset
        return try SearchResults.counting(try fetch(page), limit: page.fetchLimit, offset: offset, count: count) { stop in
            try stop.map { try fetchCount(page, stoppingAfter: $0) } ?? fetchCount(page)
        }
    }
}

/// A connection handed to ``Catalogue/write(_:)-2iykr``, inside its transaction: it reads as
/// ``CatalogueReading`` does and writes records, keeping their folded keys, aliases and
/// full-text index in sync.
///
/// ```swift
/// try catalogue.write { db in
///     try db.upsert(Product(name: "iPad Air", type: "device", year: 2013, price: 499))
/// }
/// ```
public protocol CatalogueWriting: CatalogueReading {
    /// Inserts `record` and returns it with its new id.
    @discardableResult
    func insert<R: Record>(_ record: R) throws -> R
    /// Inserts `record`, or updates the row with the same natural key; returns the record with
    /// its id and what happened.
    @discardableResult
    func upsert<R: Record>(_ record: R) throws -> (record: R, outcome: UpsertOutcome)
    /// Updates the row with `record.id`; throws ``RecordError/notFound(table:id:)`` when none.
    func update<R: Record>(_ record: R) throws
    /// Deletes the row with `id`; returns whether there was one.
    @discardableResult
    func delete<R: Record>(_ type: R.Type, id: Int64) throws -> Bool
    /// Deletes every row of the record's table; returns how many there were.
    @discardableResult
    func deleteAll<R: Record>(_ type: R.Type) throws -> Int
    /// Inserts or updates many records, all or none; returns the counts, which are those of one
    /// ``upsert(_:)`` a record in order (a later record of a natural key wins), as are the ids
    /// of new records. Hand over a collection (its `count` known) for the engine's bulk path:
    /// from 1,000 records, SQLite writes them as an import does and PostgreSQL by `COPY` and one
    /// merge.
    ///
    /// ```swift
    /// let counts = try catalogue.write { db in try db.upsert(contentsOf: products) }
    /// print(counts.inserted, counts.updated, counts.unchanged)
    /// ```
    @discardableResult
    func upsert<S: Sequence>(contentsOf records: S) throws -> UpsertCounts where S.Element: Record
}
