#if Server
import CatalogueCore

/// Totals (and product types) of recent requests, reused until the catalogue changes.
///
/// Counting is what a search at a million rows spends its time on: a one-letter prefix counts
/// tens of thousands of index entries for "N items found", every scope and every section, on
/// every keystroke of every user. The same keystrokes come again and again (everyone types "a"
/// first), so their totals are kept, keyed by the request, and all dropped at once whenever the
/// catalogue changes:
/// - the ``ChangeBroadcaster`` empties the cache as soon as it learns of a change, before it
///   tells any change stream, so a client that refreshes on a `change` event gets new totals;
/// - an import through this server empties it before answering;
/// - a write by another process is learnt of by polling (``ServerOptions/changePollingInterval``,
///   100 ms): until then, totals may lag that write (the rows themselves never do).
///
/// The cache is used only while the broadcaster is listening; otherwise every total is counted.
///
/// ```swift
/// let total = try cache.count(request, in: db)   // counted once, then reused
/// cache.invalidate()                              // the catalogue changed
/// ```
final class ResultCache: Sendable {
    private struct State {
        var isEnabled = false
        var generation: UInt64 = 0
        var values: [AnyHashable: any Sendable] = [:]
    }

    /// The most values kept; past it the cache starts over.
    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Starts (or stops) reusing values; either way the cache is emptied.
    func setEnabled(_ enabled: Bool) {
        state.withLock { state in
            state.isEnabled = enabled
            state.generation &+= 1
            state.values.removeAll()
        }
    }

    /// Forgets every value: the catalogue changed.
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.values.removeAll()
        }
    }

    /// How many values are kept.
    var count: Int {
        state.withLock { $0.values.count }
    }

    /// The value kept under `key`, or the one `compute` makes (kept when nothing changed while
    /// it was computed).
    func value<T: Sendable>(for key: AnyHashable, _ compute: () throws -> T) rethrows -> T {
        let (enabled, generation, cached) = state.withLock { ($0.isEnabled, $0.generation, $0.values[key]) }
        if enabled, let cached = cached as? T { return cached }
        let value = try compute()
        if enabled { store(value, for: key, computedAt: generation) }
        return value
    }

    /// Async form of ``value(for:_:)``.
    func value<T: Sendable>(for key: AnyHashable, _ compute: () async throws -> T) async rethrows -> T {
        let (enabled, generation, cached) = state.withLock { ($0.isEnabled, $0.generation, $0.values[key]) }
        if enabled, let cached = cached as? T { return cached }
        let value = try await compute()
        if enabled { store(value, for: key, computedAt: generation) }
        return value
    }

    /// The number of records `request` matches, counted in `db` unless known.
    func count<R: Record>(_ request: FetchRequest<R>, in db: any CatalogueReading) throws -> Int {
        try value(for: Self.countKey(request)) { try db.fetchCount(request) }
    }

    /// The count kept for `request`, if any.
    func cachedCount<R: Record>(_ request: FetchRequest<R>) -> Int? {
        let key = Self.countKey(request)
        let (enabled, value) = state.withLock { ($0.isEnabled, $0.values[key]) }
        return enabled ? value as? Int : nil
    }

    /// A request's count does not depend on its order or window.
    private static func countKey<R: Record>(_ request: FetchRequest<R>) -> AnyHashable {
        var key = request
        key.fetchLimit = nil
        key.fetchOffset = 0
        key.sortDescriptors = []
        return AnyHashable(CountKey(request: key))
    }

    private func store(_ value: some Sendable, for key: AnyHashable, computedAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.values.count >= capacity { state.values.removeAll() }
            state.values[key] = value
        }
    }

    /// The key of a count: the request, ordered or not (order does not change a count).
    private struct CountKey<R: Record>: Hashable {
        let request: FetchRequest<R>
    }
}
#endif
