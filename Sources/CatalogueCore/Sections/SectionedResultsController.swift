
/// Records of a fetch request grouped into sections, loaded in batches, and kept up to date:
/// what `NSFetchedResultsController` gives a table view.
///
/// ```swift
/// let controller = SectionedResultsController(
///     catalogue: catalogue,
///     fetchRequest: FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName))
/// try controller.performFetch()
/// controller.sections.map(\.name)          // ["A", "B", …, "Z"]
/// let first = try controller.object(at: ResultIndexPath(row: 0, section: 0))  // Afghanistan
/// ```
///
/// - Sections come from ``sectionColumn`` (by default the first sort descriptor's column)
///   through a ``SectionRule`` (by default the initial letter, A–Z then `#`). Rows of a section
///   are contiguous and in the request's order.
/// - Only ids are kept for every record (8 bytes each); records are loaded
///   ``batchSize`` at a time when first read, and a bounded number of batches stays cached.
/// - ``beginSearch(_:)`` switches to one untitled section without an index, filtered by a
///   search request; ``endSearch()`` returns to the sections.
/// - ``processPendingChanges()`` (or ``changeSets(pollingInterval:)``) reports what changed
///   after a committed write, from this process or another, as a ``ChangeSet``.
///
/// The controller is `Sendable`; its methods serialize on an internal lock.
public final class SectionedResultsController<R: Record>: Sendable {
    /// The catalogue read.
    public let catalogue: Catalogue
    /// The request of the sectioned (not searching) view.
    public let fetchRequest: FetchRequest<R>
    /// The column whose values decide sections, nil for one untitled section.
    public let sectionColumn: String?
    /// How values become sections.
    public let rule: any SectionRule
    /// Shares section information across controllers of this catalogue (Core Data's
    /// `cacheName`); nil for none.
    public let cacheName: String?
    /// How many records load together.
    public let batchSize: Int
    /// How many batches stay loaded; older ones are dropped.
    public static var maximumLoadedBatches: Int { 32 }

    struct State {
        var snapshot = ResultsSnapshot.unsectioned([])
        var fingerprint: SnapshotFingerprint?
        var token: ChangeToken?
        var search: FetchRequest<R>?
        var batches: [Int: [R]] = [:]
        var batchUse: [Int: UInt64] = [:]
        var clock: UInt64 = 0
    }

    let state = Locked(State())

    /// A controller for `fetchRequest`, sectioned as `sectioning` says (default: by the column of
    /// the first sort descriptor) under `rule`.
    public init(
        catalogue: Catalogue,
        fetchRequest: FetchRequest<R>,
        sectioning: Sectioning = .byFirstSortColumn,
        rule: any SectionRule = InitialLetterSectionRule(),
        cacheName: String? = nil
    ) {
        self.catalogue = catalogue
        self.fetchRequest = fetchRequest
        switch sectioning {
        case .byFirstSortColumn: self.sectionColumn = fetchRequest.sortDescriptors.first?.column
        case .byColumn(let column): self.sectionColumn = column
        case .none: self.sectionColumn = nil
        }
        self.rule = rule
        self.cacheName = cacheName
        self.batchSize = fetchRequest.fetchBatchSize > 0 ? fetchRequest.fetchBatchSize : 20
    }

    // MARK: - Fetching

    /// Computes the sections (or reuses them when the database and request are unchanged, or
    /// from the cache named ``cacheName``). Loads no record.
    public func performFetch() throws {
        try state.withLock { state in
            // The token first: a commit after it makes the next check recompute, never miss.
            let token = try catalogue.engine.changeToken()
            let fingerprint = fingerprint(search: state.search)
            if state.fingerprint == fingerprint, state.token == token { return }
            state.snapshot = try catalogue.read { db in
                try snapshot(fingerprint: fingerprint, token: token, search: state.search, db: db)
            }
            state.fingerprint = fingerprint
            state.token = token
            state.batches.removeAll()
            state.batchUse.removeAll()
        }
    }

    /// The sections, in order (one untitled section while searching).
    public var sections: [SectionInfo] {
        state.withLock { $0.snapshot.sections }
    }

    /// How many sections there are.
    public var numberOfSections: Int {
        state.withLock { $0.snapshot.sections.count }
    }

    /// How many records section `section` holds.
    public func numberOfObjects(inSection section: Int) -> Int {
        state.withLock { state in
            state.snapshot.sections.indices.contains(section) ? state.snapshot.sections[section].numberOfObjects : 0
        }
    }

    /// How many records there are in all.
    public var fetchedCount: Int {
        state.withLock { $0.snapshot.ids.count }
    }

    /// The record at `indexPath`, loading its batch if needed.
    ///
    /// Throws ``SectionedResultsError/indexPathOutOfRange(_:)`` for a path outside the results,
    /// and ``SectionedResultsError/recordMissing(id:)`` when the record was deleted since the
    /// last fetch (call ``processPendingChanges()``).
    public func object(at indexPath: ResultIndexPath) throws -> R {
        try state.withLock { state in
            guard let position = state.snapshot.position(of: indexPath) else {
                throw SectionedResultsError.indexPathOutOfRange(indexPath)
            }
            let batch = position / batchSize
            state.clock &+= 1
            state.batchUse[batch] = state.clock
            if let records = state.batches[batch] {
                return records[position % batchSize]
            }
            let records = try loadBatch(batch, of: state.snapshot)
            state.batches[batch] = records
            if state.batches.count > Self.maximumLoadedBatches,
               let oldest = state.batchUse.filter({ state.batches[$0.key] != nil }).min(by: { $0.value < $1.value })?.key {
                state.batches[oldest] = nil
                state.batchUse[oldest] = nil
            }
            return records[position % batchSize]
        }
    }

    /// The index path of the record with `id`, nil when it is not in the results.
    public func indexPath(forID id: Int64) -> ResultIndexPath? {
        state.withLock { state in
            state.snapshot.ids.firstIndex(of: id).map { state.snapshot.path(at: $0) }
        }
    }

    /// The index path of `record` (by its id), nil when it is not in the results.
    public func indexPath(for record: R) -> ResultIndexPath? {
        record.id.flatMap { indexPath(forID: $0) }
    }

    /// The ids of each section, in order.
    public var sectionedIDs: [(name: String, ids: [Int64])] {
        state.withLock { $0.snapshot.sectionedIDs }
    }

    // MARK: - Search mode

    /// Whether a search is active.
    public var isSearchActive: Bool {
        state.withLock { $0.search != nil }
    }

    /// Shows the records of `request` as one untitled section without an index, and fetches.
    /// Call again on every keystroke with the new request.
    public func beginSearch(_ request: FetchRequest<R>) throws {
        var unlimited = request
        unlimited.fetchLimit = nil
        unlimited.fetchOffset = 0
        state.withLock { $0.search = unlimited }
        try performFetch()
    }

    /// Ends the search and returns to the sectioned view.
    public func endSearch() throws {
        state.withLock { $0.search = nil }
        try performFetch()
    }

    // MARK: - Internals

    func fingerprint(search: FetchRequest<R>?) -> SnapshotFingerprint {
        if let search {
            return SnapshotFingerprint(request: AnyHashable(search), column: nil, rule: "search")
        }
        return SnapshotFingerprint(
            request: AnyHashable(fetchRequest), column: sectionColumn, rule: String(reflecting: type(of: rule)))
    }

    func snapshot(
        fingerprint: SnapshotFingerprint, token: ChangeToken, search: FetchRequest<R>?, db: any CatalogueReading
    ) throws -> ResultsSnapshot {
        if search == nil, let cacheName,
           let cached = catalogue.sectionInfoCache.snapshot(named: cacheName, fingerprint: fingerprint, token: token) {
            return cached
        }
        let snapshot: ResultsSnapshot
        if let search {
            snapshot = .unsectioned(try db.fetchIDs(search))
        } else if let sectionColumn {
            snapshot = try .sectioned(fetchRequest, column: sectionColumn, rule: rule, db: db)
        } else {
            var unlimited = fetchRequest
            unlimited.fetchLimit = nil
            unlimited.fetchOffset = 0
            snapshot = .unsectioned(try db.fetchIDs(unlimited))
        }
        if search == nil, let cacheName {
            catalogue.sectionInfoCache.store(snapshot, named: cacheName, fingerprint: fingerprint, token: token)
        }
        return snapshot
    }

    /// The records of batch `batch`, in snapshot order.
    private func loadBatch(_ batch: Int, of snapshot: ResultsSnapshot) throws -> [R] {
        let start = batch * batchSize
        let ids = Array(snapshot.ids[start..<min(start + batchSize, snapshot.ids.count)])
        let records: [R] = try catalogue.engine.reading { db in try self.records(withIDs: ids, db: db) }
        var byID: [Int64: R] = [:]
        for record in records {
            if let id = record.id { byID[id] = record }
        }
        return try ids.map { id in
            guard let record = byID[id] else { throw SectionedResultsError.recordMissing(id: id) }
            return record
        }
    }

    func records(withIDs ids: [Int64], db: any CatalogueReading) throws -> [R] {
        try db.records(R.self, ids: ids)
    }
}

/// How a ``SectionedResultsController`` forms sections.
public enum Sectioning: Sendable, Hashable {
    /// By the column of the request's first sort descriptor (the default).
    case byFirstSortColumn
    /// By this column.
    case byColumn(String)
    /// One untitled section.
    case none
}

/// A sectioned results controller could not answer.
public enum SectionedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The index path is outside the results.
    case indexPathOutOfRange(ResultIndexPath)
    /// The record was deleted after the results were computed.
    case recordMissing(id: Int64)

    public var description: String {
        switch self {
        case .indexPathOutOfRange(let path): "index path \(path) is outside the results"
        case .recordMissing(let id): "record \(id) was deleted since the last fetch; process pending changes"
        }
    }
}
