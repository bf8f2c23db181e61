extension SectionedResultsController {
    /// Checks whether the database changed since the last fetch (a committed write through this
    /// catalogue or by another connection or process) and, if it did, recomputes the results and
    /// returns what changed; nil when nothing did.
    ///
    /// Updates are reported for records that were loaded (read with ``object(at:)``) and whose
    /// values changed; other records load fresh when next read.
    ///
    /// ```swift
    /// try catalogue.write { db in try db.insert(Country(code: "XA", name: "Atlantis")) }
    /// if let changes = try controller.processPendingChanges() {
    ///     apply(changes)  // insertRow([0, 3]) …
    /// }
    /// ```
    @discardableResult
    public func processPendingChanges() throws -> ChangeSet? {
        try state.withLock { state in
            // The token first: a commit after it makes the next check recompute, never miss.
            let token = try catalogue.engine.changeToken()
            guard let fingerprint = state.fingerprint, state.token != token else { return nil }
            let (new, updated) = try catalogue.read { db in
                let new = try snapshot(fingerprint: fingerprint, token: token, search: state.search, db: db)
                return (new, try updatedIDs(loaded: state.batches, in: new, db: db))
            }
            let changes = ChangeSet.difference(from: state.snapshot, to: new, updated: updated)
            state.snapshot = new
            state.token = token
            state.batches.removeAll()
            state.batchUse.removeAll()
            return changes.isEmpty ? nil : changes
        }
    }

    /// Change sets as they happen: each change the catalogue reports (``Catalogue/changes(pollingInterval:)``:
    /// this catalogue's writes as they commit, others' within `pollingInterval` on SQLite) is
    /// processed, and each non-empty ``ChangeSet`` yielded. Ends when the task iterating it is
    /// cancelled, or with the first error.
    ///
    /// ```swift
    /// for try await changes in controller.changeSets() {
    ///     apply(changes)
    /// }
    /// ```
    public func changeSets(pollingInterval: Duration = .milliseconds(100)) -> AsyncThrowingStream<ChangeSet, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // Subscribed first, then changes made since the last fetch: none is missed.
                    let catalogueChanges = self.catalogue.changes(pollingInterval: pollingInterval)
                    if let changes = try await offload({ try self.processPendingChanges() }) {
                        continuation.yield(changes)
                    }
                    for try await change in catalogueChanges where change.affects(R.self) {
                        if let changes = try await offload({ try self.processPendingChanges() }) {
                            continuation.yield(changes)
                        }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Ids of loaded records still in the results whose stored values changed.
    private func updatedIDs(loaded batches: [Int: [R]], in snapshot: ResultsSnapshot, db: any CatalogueReading) throws -> Set<Int64> {
        let loaded = batches.values.flatMap { $0 }
        guard !loaded.isEmpty else { return [] }
        var current: [Int64: [DatabaseValue]] = [:]
        for chunk in stride(from: 0, to: loaded.count, by: 500) {
            let ids = loaded[chunk..<min(chunk + 500, loaded.count)].compactMap(\.id)
            for record in try records(withIDs: ids, db: db) {
                if let id = record.id { current[id] = record.databaseValues }
            }
        }
        var updated: Set<Int64> = []
        for record in loaded {
            guard let id = record.id, let values = current[id] else { continue }
            if values != record.databaseValues { updated.insert(id) }
        }
        return updated
    }
}
