#if Server
import CatalogueCore
import Logging
import ServiceLifecycle

/// Watches the catalogue's changes once for the whole server and hands each change, as a
/// ``ChangeEvent`` per entity it touches, to every open change stream of that entity.
///
/// A change that names its rows (a write through this process) is split into inserted, updated
/// and deleted by looking the ids up: a row that exists and is newer than any this server has
/// seen was inserted, an older one updated, a missing one deleted. A change that does not (a
/// bulk import, another process) lists the rows newer than any seen as inserted and sets
/// `reload`, since others may have changed too.
///
/// Runs as a service of the server's service group; it ends at graceful shutdown.
final class ChangeBroadcaster: Service, Sendable {
    typealias Subscriber = @Sendable (ChangeEvent) -> Void

    let catalogue: Catalogue
    let cache: ResultCache
    let pollingInterval: Duration
    let logger: Logger
    private let subscribers = Locked<[UInt64: (entity: CatalogueEntity, deliver: Subscriber)]>([:])
    private let nextID = Locked<UInt64>(0)
    private let highestIDs = Locked<[CatalogueEntity: Int64]>([:])
    /// Set once ``run()`` listens and has noted the newest rows.
    private let isWatching = Locked(false)

    init(catalogue: Catalogue, cache: ResultCache, pollingInterval: Duration, logger: Logger) {
        self.catalogue = catalogue
        self.cache = cache
        self.pollingInterval = pollingInterval
        self.logger = logger
    }

    /// Calls `deliver` with every change event of `entity` until the returned subscription is
    /// cancelled.
    func subscribe(to entity: CatalogueEntity, _ deliver: @escaping Subscriber) -> Subscription {
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        subscribers.withLock { $0[id] = (entity, deliver) }
        // The table, not a weak `self`: see ChangeHub.stream (LeakSanitizer and weak references).
        return Subscription { [subscribers] in subscribers.withLock { $0[id] = nil } }
    }

    /// Returns once the broadcaster listens for changes and has noted the newest rows, or after
    /// `limit`: from then on a row committed by this process is reported as inserted. (Before
    /// it, the newest rows noted could already include it, and it would read as updated.)
    func waitUntilWatching(limit: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + limit
        while !isWatching.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How many change streams are open.
    var subscriberCount: Int {
        subscribers.withLock { $0.count }
    }

    func run() async throws {
        // Totals are reused only while changes are being heard.
        defer { cache.setEnabled(false) }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                // Listen first, then note the newest rows: a commit in between is reported, not missed.
                let changes = catalogue.changes(pollingInterval: pollingInterval)
                try await rememberHighestIDs()
                isWatching.withLock { $0 = true }
                cache.setEnabled(true)
                // Structured (a child task cancelled at graceful shutdown), so the watching runs
                // where the server's tasks run.
                try await cancelWhenGracefulShutdown { [self] in
                    for try await change in changes {
                        cache.invalidate()
                        for entity in CatalogueEntity.allCases {
                            if let event = try await event(for: change, entity: entity) {
                                publish(event)
                            }
                        }
                    }
                }
                return
            } catch is CancellationError {
                return
            } catch {
                // The database could not be read (busy, gone): say so, and watch again shortly.
                cache.setEnabled(false)
                logger.error("change stream failed; retrying", metadata: ["error": "\(String(describing: error))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func publish(_ event: ChangeEvent) {
        let receivers = subscribers.withLock { $0.values.filter { $0.entity == event.entity }.map(\.deliver) }
        for deliver in receivers { deliver(event) }
    }

    private func rememberHighestIDs() async throws {
        for entity in CatalogueEntity.allCases {
            let highest = try await highestID(of: entity.recordType)
            highestIDs.withLock { $0[entity] = highest }
        }
    }

    private func highestID<R: CatalogueRecord>(of type: R.Type) async throws -> Int64 {
        var request = FetchRequest<R>(predicate: .true, sortDescriptors: [FetchSortDescriptor("id", ascending: false)])
        request.fetchLimit = 1
        return try await catalogue.fetchIDs(request).first ?? 0
    }

    /// The event `change` makes for `entity`, nil when it does not touch it.
    func event(for change: DatabaseChange, entity: CatalogueEntity) async throws -> ChangeEvent? {
        try await event(for: change, type: entity.recordType)
    }

    private func event<R: CatalogueRecord>(for change: DatabaseChange, type: R.Type) async throws -> ChangeEvent? {
        let entity = R.entity.entity
        guard change.affects(R.self) else { return nil }
        let highest = highestIDs.withLock { $0[entity] ?? 0 }
        var event = ChangeEvent(entity: entity)
        if let ids = change.changedIDs(of: R.self) {
            guard !ids.isEmpty else { return nil }
            guard ids.count <= ChangeEvent.maximumListedIDs else {
                event.reload = true
                let newest = try await highestID(of: R.self)
                highestIDs.withLock { $0[entity] = max($0[entity] ?? 0, newest) }
                return event
            }
            let existing = Set(try await catalogue.fetchIDs(FetchRequest<R>(predicate: .in("id", Array(ids)), sortDescriptors: [])))
            event.inserted = existing.filter { $0 > highest }.sorted()
            event.updated = existing.filter { $0 <= highest }.sorted()
            event.deleted = ids.subtracting(existing).sorted()
            if let newest = existing.max() {
                highestIDs.withLock { $0[entity] = max($0[entity] ?? 0, newest) }
            }
            return event
        }
        event.reload = true
        var request = FetchRequest<R>(predicate: .greaterThan("id", highest), sortDescriptors: [FetchSortDescriptor("id")])
        request.fetchLimit = ChangeEvent.maximumListedIDs + 1
        let inserted = try await catalogue.fetchIDs(request)
        let newest = inserted.count > ChangeEvent.maximumListedIDs ? try await highestID(of: R.self) : inserted.last
        if inserted.count <= ChangeEvent.maximumListedIDs {
            event.inserted = inserted
        }
        if let newest {
            highestIDs.withLock { $0[entity] = max($0[entity] ?? 0, newest) }
        }
        return event
    }
}

/// Ends a subscription when cancelled.
struct Subscription: Sendable {
    let cancel: @Sendable () -> Void
}
#endif
