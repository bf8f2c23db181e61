/// The rowids an FTS5 table matched for a pattern, ascending: what ``FullTextMembership``'s
/// functions collect once and look rows up in.
final class CollectedMatches {
    let ids: [Int64]
    /// The number ``FullTextMembership/collectFunctionName`` returned for these matches, or 0
    /// when a membership call collected them for itself.
    var setID: Int64 = 0

    init(_ ids: [Int64]) {
        self.ids = ids
    }

    /// Binary search (called once per row a statement checks).
    func contains(_ id: Int64) -> Bool {
        ids.withUnsafeBufferPointer { ids in
            var low = 0
            var high = ids.count
            while low < high {
                let middle = (low + high) &>> 1
                if ids[middle] < id { low = middle &+ 1 } else { high = middle }
            }
            return low < ids.count && ids[low] == id
        }
    }
}

/// The match sets a connection's statements collected with
/// ``FullTextMembership/collectFunctionName``, by the number the function returned: the user
/// data of the functions that read them. It holds each set weakly: the collecting call keeps it
/// (as SQLite's auxiliary data of the call, dropped when its statement is reset), so a set lives
/// for one execution of the statement that collected it, and a number from an earlier execution
/// finds nothing. Numbers are never reused on a connection.
///
/// Inside a read transaction (``beginSharing()``, ``endSharing()``) it also keeps every set the
/// functions collect, by table and pattern: nothing the connection runs there can write, and the
/// transaction reads one snapshot of the file, so the matches stay right until it ends, and a
/// later statement of the same transaction (the count after a page) takes them instead of
/// reading the index again.
final class CollectedMatchSets {
    private struct Entry {
        let id: Int64
        let table: String
        let pattern: String?
        weak var matches: CollectedMatches?
    }

    private var entries: [Entry] = []
    private var lastID: Int64 = 0

    private struct SharedKey: Hashable {
        let table: String
        let pattern: String?
    }

    /// The sets collected in the current read transaction, with the connection's count of
    /// changed rows when each was collected; nil outside one.
    private var shared: [SharedKey: (matches: CollectedMatches, changes: Int64)]?

    /// The most sets remembered at once: a statement collects at most two (a search's exact
    /// words and its words with typos); an older set that is still alive is found again by its
    /// membership calls, which collect for themselves when it is not.
    private static let capacity = 4

    /// Remembers `matches`, collected from `table` for `pattern`, under a new number, and returns it.
    func add(_ matches: CollectedMatches, table: String, pattern: String?) -> Int64 {
        entries.removeAll { $0.matches == nil }
        if entries.count >= Self.capacity { entries.removeFirst() }
        lastID += 1
        matches.setID = lastID
        entries.append(Entry(id: lastID, table: table, pattern: pattern, matches: matches))
        return lastID
    }

    /// The set numbered `id`, when it is still alive and was collected from `table` for `pattern`.
    func matches(_ id: Int64, table: String, pattern: String?) -> CollectedMatches? {
        guard let entry = entries.last(where: { $0.id == id }), entry.table == table, entry.pattern == pattern else {
            return nil
        }
        return entry.matches
    }

    /// Starts keeping the sets collected until ``endSharing()``: called when a read transaction
    /// begins.
    func beginSharing() {
        shared = [:]
    }

    /// Drops the sets kept since ``beginSharing()``: called when the read transaction ends.
    func endSharing() {
        shared = nil
    }

    /// Keeps `matches`, collected from `table` for `pattern` when the connection had changed
    /// `changes` rows in all, for the rest of the read transaction (nothing outside one).
    func share(_ matches: CollectedMatches, table: String, pattern: String?, changes: Int64) {
        shared?[SharedKey(table: table, pattern: pattern)] = (matches, changes)
    }

    /// The set kept in this read transaction for `table` and `pattern`, when the connection has
    /// changed no row since it was collected (`changes`: its count of changed rows now).
    func shared(table: String, pattern: String?, changes: Int64) -> CollectedMatches? {
        guard let kept = shared?[SharedKey(table: table, pattern: pattern)], kept.changes == changes else { return nil }
        return kept.matches
    }

    /// A retained reference for a function's user data; ``release(_:)`` gives it back.
    func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The sets a function's user data points to.
    static func from(_ pointer: UnsafeMutableRawPointer) -> CollectedMatchSets {
        Unmanaged<CollectedMatchSets>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Gives back a reference from ``retainedPointer()`` (SQLite calls it when the function is
    /// dropped, with the connection).
    static func release(_ pointer: UnsafeMutableRawPointer?) {
        if let pointer { Unmanaged<CollectedMatchSets>.fromOpaque(pointer).release() }
    }
}
