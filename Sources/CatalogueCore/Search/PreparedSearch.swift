/// A search prepared once for a scope and match mode and run keystroke after keystroke: each
/// text is bound into statements compiled when the search was prepared, so typing costs the
/// read and little else.
///
/// In ``MatchMode/prefix`` (and for any request whose SQL depends on its text only through the
/// text's folded key, see ``bindsTextOnly``) a keystroke trims and folds the text, computes the
/// end of its key range and binds both into the page statement (and the count statement) that
/// preparing compiled: no request is built, no predicate compiled, no SQL text assembled. The
/// other modes plan per text (a CONTAINS picks the trigram index or a scan by how selective the
/// text is; a fuzzy word looks its typos up), so they build and compile each search, exactly as
/// ``Catalogue/search(_:limit:offset:count:)-1o0xc`` does. Either way the records are those of
/// ``CatalogueSearch``'s request for the text, in its order.
///
/// ```swift
/// let search = try catalogue.prepareSearch(products: .all, mode: .prefix, limit: 50)
/// for text in ["c", "cr", "cré", "crèm"] {
///     let results = try search.search(text)
///     print(text, results.summary, results.records.first?.name ?? "")
/// }
/// ```
///
/// A prepared search is `Sendable`; share it across tasks. It holds SQL, not a connection:
/// each run reads on one of the engine's connections, which keeps the compiled statement in
/// its cache.
public final class PreparedSearch<R: Record>: Sendable {
    /// The catalogue searched.
    public let catalogue: Catalogue
    /// The most records a page holds.
    public let limit: Int
    /// How far ``search(_:)-5fmmy`` counts the matches.
    public let count: CountLimit
    /// The request for a text: what the search means, and what runs for texts no template fits.
    private let makeRequest: @Sendable (String) throws -> FetchRequest<R>
    /// The page and count statements, compiled once; nil when the request's SQL depends on
    /// its text in another way than through the folded key.
    private let templates: Templates?

    private struct Templates: Sendable {
        let page: SearchTextTemplate
        /// Counts every match.
        let count: SearchTextTemplate
        /// Stops after the cap and one more (nil without a cap).
        let cappedCount: SearchTextTemplate?
    }

    /// Whether keystrokes only bind their text into statements compiled when the search was
    /// prepared (true in ``MatchMode/prefix``), rather than building and compiling a request
    /// per text (the modes that plan per text).
    public var bindsTextOnly: Bool {
        templates != nil
    }

    /// Prepares `makeRequest` for repeated runs: a page of at most `limit` records (`limit` must
    /// be positive), counted as `count` says. The request for one text must differ from the
    /// request for another only in its text: ``CatalogueSearch``'s requests do.
    ///
    /// ```swift
    /// let search = try PreparedSearch(catalogue: catalogue, limit: 20) { text in
    ///     CatalogueSearch.countries(matching: text, scope: .capital)
    /// }
    /// try search.fetch("bog").map(\.name)  // ["Colombia"]
    /// ```
    public init(
        catalogue: Catalogue, limit: Int = 50, count: CountLimit = .standard,
        _ makeRequest: @escaping @Sendable (String) throws -> FetchRequest<R>
    ) throws {
        precondition(limit > 0, "a prepared search needs a positive page limit")
        self.catalogue = catalogue
        self.limit = limit
        self.count = count
        self.makeRequest = makeRequest
        self.templates = try catalogue.engine.reading { db in
            try Self.templates(of: makeRequest, limit: limit, count: count, dialect: db.dialect)
        }
    }

    /// The page for `text`: at most ``limit`` records, in the request's order.
    public func fetch(_ text: String) throws -> [R] {
        if let templates, let bindings = SearchTextTemplate.bindings(for: text) {
            let page = templates.page.fragment(folded: bindings.folded, successor: bindings.successor)
            return try catalogue.engine.reading { db in try db.fetchRecords(page, as: R.self, expectedCount: limit) }
        }
        return try catalogue.fetch(try request(for: text))
    }

    /// The page for `text` and how many records match in all, counted as ``count`` says, in one
    /// consistent snapshot (see ``Catalogue/search(_:limit:offset:count:)-1o0xc``).
    public func search(_ text: String) throws -> SearchResults<R> {
        guard let templates, let bindings = SearchTextTemplate.bindings(for: text) else {
            return try catalogue.search(try request(for: text), count: count)
        }
        let (folded, successor) = bindings
        let page = templates.page.fragment(folded: folded, successor: successor)
        return try catalogue.read { db in
            let records = try db.fetchRecords(page, as: R.self, expectedCount: limit)
            return try SearchResults.counting(records, limit: limit, offset: 0, count: count) { stoppingAfter in
                // The capped template stops after `cap + 1`, which is what a capped count asks.
                let counting = stoppingAfter == nil ? templates.count : templates.cappedCount ?? templates.count
                return try db.fetchInteger(counting.fragment(folded: folded, successor: successor))
            }
        }
    }

    /// Async form of ``fetch(_:)``: runs off the caller's thread, and stops when its task is
    /// cancelled, throwing `CancellationError`.
    public func fetch(_ text: String) async throws -> [R] {
        try await offloadRead { try self.fetch(text) }
    }

    /// Async form of ``search(_:)``: runs off the caller's thread, and stops when its task is
    /// cancelled, throwing `CancellationError` (cancel the search of the keystroke before).
    ///
    /// ```swift
    /// let results = try await search.search(typed)
    /// ```
    public func search(_ text: String) async throws -> SearchResults<R> {
        try await offloadRead { try self.search(text) }
    }

    /// The request for `text`, limited to ``limit``: what ``fetch(_:)-8i7to`` and ``search(_:)-5fmmy`` run.
    public func request(for text: String) throws -> FetchRequest<R> {
        try Self.page(of: makeRequest, for: text, limit: limit)
    }

    /// `makeRequest(text)` as a first page of `limit` records.
    private static func page(
        of makeRequest: (String) throws -> FetchRequest<R>, for text: String, limit: Int
    ) throws -> FetchRequest<R> {
        var request = try makeRequest(text)
        request.fetchLimit = limit
        request.fetchOffset = 0
        return request
    }

    /// The page and count templates, or nil when the request plans per text or its SQL changes
    /// with the text.
    private static func templates(
        of makeRequest: (String) throws -> FetchRequest<R>, limit: Int, count: CountLimit, dialect: some SQLDialect
    ) throws -> Templates? {
        func request(_ text: String) throws -> FetchRequest<R> {
            try page(of: makeRequest, for: text, limit: limit)
        }
        guard try !request(SearchTextTemplate.sentinels.0).predicate.isPlannedPerText,
              let page = try SearchTextTemplate({ try request($0).selectSQL(in: dialect) }),
              let counting = try SearchTextTemplate({ try request($0).countSQL(in: dialect) })
        else { return nil }
        // One more than the cap tells "more than the cap" from "exactly the cap"
        // (SearchResults.counting asks for it).
        var capped: SearchTextTemplate?
        if let cap = count.cap {
            guard let template = try SearchTextTemplate({ try request($0).countSQL(in: dialect, stoppingAfter: cap + 1) })
            else { return nil }
            capped = template
        }
        return Templates(page: page, count: counting, cappedCount: capped)
    }
}

extension FetchPredicate {
    /// Whether an engine plans this predicate's SQL by its text and the data (a CONTAINS may read
    /// a trigram index or scan; a full-text pattern may look typos up), so it cannot be compiled
    /// once for every text.
    var isPlannedPerText: Bool {
        switch self {
        case .comparison(_, .contains, _, _), .anyAlias(.contains, _, _), .fullText: true
        case .and(let predicates), .or(let predicates): predicates.contains(where: \.isPlannedPerText)
        case .not(let inner): inner.isPlannedPerText
        default: false
        }
    }
}

extension Catalogue {
    /// A search of countries in `scope` and `mode`, prepared for keystroke after keystroke (see
    /// ``PreparedSearch``): pages of at most `limit`, counted as `count` says.
    ///
    /// ```swift
    /// let search = try catalogue.prepareSearch(countries: .capital)
    /// try search.fetch("bog").first?.name  // "Colombia"
    /// ```
    public func prepareSearch(
        countries scope: CountryScope = .name, mode: MatchMode = .prefix, limit: Int = 50, count: CountLimit = .standard
    ) throws -> PreparedSearch<Country> {
        try PreparedSearch(catalogue: self, limit: limit, count: count) {
            CatalogueSearch.countries(matching: $0, scope: scope, mode: mode)
        }
    }

    /// A search of products in `scope` and `mode`, prepared for keystroke after keystroke (see
    /// ``PreparedSearch``): pages of at most `limit`, counted as `count` says.
    ///
    /// ```swift
    /// let search = try catalogue.prepareSearch(products: .type("device"), limit: 20)
    /// try search.search("ipa").summary  // "2 items found" (iPad, iPad mini)
    /// ```
    public func prepareSearch(
        products scope: ProductScope = .all, mode: MatchMode = .prefix, limit: Int = 50, count: CountLimit = .standard
    ) throws -> PreparedSearch<Product> {
        try PreparedSearch(catalogue: self, limit: limit, count: count) {
            CatalogueSearch.products(matching: $0, scope: scope, mode: mode)
        }
    }

    /// A search of `type`'s records in the scope named `scope` (nil: the entity's default),
    /// prepared for keystroke after keystroke (see ``PreparedSearch``): what the interactive
    /// mode runs per typed batch.
    ///
    /// ```swift
    /// let search = try catalogue.prepareSearch(Product.self, scope: "device")
    /// try search.search("ip").records.map(\.name)  // ["iPad", "iPhone", "iPod"]
    /// ```
    public func prepareSearch<R: CatalogueRecord>(
        _ type: R.Type, scope: String?, mode: MatchMode = .prefix, limit: Int = 50, count: CountLimit = .standard
    ) throws -> PreparedSearch<R> {
        try PreparedSearch(catalogue: self, limit: limit, count: count) {
            try R.searchRequest(matching: $0, scope: scope, mode: mode)
        }
    }
}
