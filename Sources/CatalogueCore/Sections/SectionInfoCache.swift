
/// What a controller's snapshot was computed from: the request (its predicate, order and
/// search text), the section column and rule, and whether it is a search.
///
/// `@unchecked`: `request` only ever holds a `FetchRequest`, which is `Sendable`.
struct SnapshotFingerprint: @unchecked Sendable, Hashable {
    let request: AnyHashable
    let column: String?
    let rule: String
}

/// Section arrangements by cache name, shared by the controllers of one catalogue (Core Data's
/// `cacheName`): a controller whose request, rule and database state match reuses the cached
/// sections and ids instead of recounting. Any write changes the database state, so a stale
/// entry is never used.
final class SectionInfoCache: Sendable {
    private struct Entry {
        let fingerprint: SnapshotFingerprint
        let token: ChangeToken
        let snapshot: ResultsSnapshot
    }

    private let entries = Locked<[String: Entry]>([:])

    func snapshot(named name: String, fingerprint: SnapshotFingerprint, token: ChangeToken) -> ResultsSnapshot? {
        entries.withLock { entries in
            guard let entry = entries[name], entry.fingerprint == fingerprint, entry.token == token else { return nil }
            return entry.snapshot
        }
    }

    func store(_ snapshot: ResultsSnapshot, named name: String, fingerprint: SnapshotFingerprint, token: ChangeToken) {
        entries.withLock { $0[name] = Entry(fingerprint: fingerprint, token: token, snapshot: snapshot) }
    }

    /// Forgets the entry named `name` (all entries when nil).
    func remove(named name: String?) {
        entries.withLock { entries in
            if let name { entries[name] = nil } else { entries.removeAll() }
        }
    }
}
