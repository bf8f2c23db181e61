import CatalogueCore
import SQLiteStore

/// The ids of the rows that can match a request, found in its indexes before any row is read,
/// and the `CONTAINS[cd]` comparison that is narrowed to them
/// (``Connection/intersectedCandidates(for:)``).
struct IntersectedCandidates: Sendable, Hashable {
    /// The comparison, as the compiler writes it, that the dialect narrows to ``ids``.
    let comparison: SQLiteDialect.TrigramLookup
    /// The record table's qualified id (`product.id`).
    let qualifiedID: String
    /// The candidates, ascending.
    let ids: [Int64]

    /// ``ids`` as a JSON array, the one parameter of `json_each(?)`.
    var json: String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}

extension Connection {
    /// The most ids one alternative's index lookup reads; a condition more rows meet is too
    /// common to narrow the others (about 20 ms of reading at the limit).
    static let intersectionSourceLimit = 250_000
    /// The most candidates an intersection hands on: beyond, the trigram index's candidates or
    /// the ordered scan serve as well (``SQLiteTrigramIndex/pageCandidateLimit``).
    static let intersectionCandidateLimit = 20_000
    /// The most members whose ids are read: a search of many terms intersects its first few,
    /// which narrow it enough, rather than read a list for each.
    static let intersectionMemberLimit = 4

    /// The rows that can match `request`, found by intersecting its indexed conditions, when
    /// at least two of them narrow it; nil otherwise, and the request is planned as before.
    ///
    /// Each member of the predicate's top-level AND that is an OR of indexable conditions
    /// (``FetchPredicate/requiredIndexableAlternatives(in:)``) lists the ids of its
    /// alternatives: a `CONTAINS[cd]` of three or more characters from the key's trigram index,
    /// an equality from an index that leads with its column (`product_by_year`). The lists of a
    /// member are joined, the members intersected. Every match of the request lies in the
    /// result, which narrows a required `CONTAINS[cd]` of the predicate; the rows are then read
    /// by id and checked against the whole predicate, so the result and its order are the
    /// request's own.
    ///
    /// The terms mode's `lamp 2001` at 1,000,000 products: 22,260 rows hold the trigrams of
    /// "lamp", 21,868 were made in 2001, 321 hold "2001" and 6 cost 2001; 477 rows lie in both,
    /// and only those are read, where the trigram index alone had every row of "lamp" read.
    /// The last request's result is kept on the connection until the database changes, so a
    /// search's page and count read the indexes once.
    ///
    /// ```swift
    /// let request = CatalogueSearch.products(matching: "lamp 2001", mode: .terms)
    /// let candidates = try db.intersectedCandidates(for: request)  // 477 ids at 1M
    /// ```
    func intersectedCandidates<R: Record>(for request: FetchRequest<R>) throws -> IntersectedCandidates? {
        let schema = R.schema
        let predicate = request.predicate
        guard Self.mayIntersect(predicate) else { return nil }
        let members = predicate.requiredIndexableAlternatives(in: schema)
        guard members.count >= 2 else { return nil }
        // The comparison to narrow: a required one, so that SQLite reads the rows by id. The
        // dialect narrows every place it is written, which changes no result: a row outside
        // the candidates fails a listed member, and narrowing only makes a comparison false
        // where it was true, so the member (an OR of comparisons) still fails; a row among
        // them compares as before.
        guard let narrowed = predicate.requiredKeyContainsComparisons(in: schema).first else { return nil }
        // A search reads its page and then its count on one connection: the ids are read once,
        // and only the last predicate's are kept (a slot that forgets when the database changes).
        let slot = try remembered("intersected candidates") { IntersectionSlot() }
        let key = IntersectionSlot.key(table: schema.table, members: members, narrowed: narrowed)
        if let last = slot.last, last.key == key { return last.candidates }
        let candidates = try intersectCandidates(of: members, narrowing: narrowed, as: R.self)
        slot.last = (key, candidates)
        return candidates
    }

    /// The intersection of the ids of `members`, each the ids of any of its alternatives. The
    /// members whose every alternative has an index are found first (at most
    /// ``intersectionMemberLimit``), so nothing is read unless two or more have.
    private func intersectCandidates<R: Record>(
        of members: [[FetchPredicate.IndexableCondition]], narrowing narrowed: (keyColumn: String, needle: String),
        as type: R.Type
    ) throws -> IntersectedCandidates? {
        let schema = R.schema
        var listed: [[SQLFragment]] = []
        for alternatives in members where listed.count < Self.intersectionMemberLimit {
            if let sources = try idSources(for: alternatives, as: R.self) { listed.append(sources) }
        }
        guard listed.count >= 2 else { return nil }
        var lists: [[Int64]] = []
        for sources in listed {
            guard let ids = try readIDs(from: sources) else { continue }
            if ids.isEmpty { return IntersectedCandidates(comparison: .init(narrowed), qualifiedID: schema.qualifiedID, ids: []) }
            lists.append(ids)
        }
        guard lists.count >= 2 else { return nil }
        lists.sort { $0.count < $1.count }
        var candidates = lists[0]
        for list in lists.dropFirst() {
            candidates = Self.intersection(of: candidates, and: list)
            if candidates.isEmpty { break }
        }
        guard candidates.count <= Self.intersectionCandidateLimit else { return nil }
        return IntersectedCandidates(comparison: .init(narrowed), qualifiedID: schema.qualifiedID, ids: candidates)
    }

    /// Whether `request` reads its intersected candidates (``intersectedCandidates(for:)``)
    /// before the key ranges (``SQLiteKeyRangeIndex``) are tried: when a member lists rows by an
    /// equality (a term that is a number, as a year or a price), which the key ranges, made of
    /// names, cannot narrow, and the candidates are few enough. Where every member is a
    /// `CONTAINS[cd]` the ranges require them all, and a common text fills its page from a
    /// few ranges, without reading every id of each text.
    @usableFromInline
    func readsIntersectionFirst<R: Record>(_ request: FetchRequest<R>) throws -> Bool {
        guard Self.mayIntersect(request.predicate) else { return false }
        let members = request.predicate.requiredIndexableAlternatives(in: R.schema)
        let listsEqualities = members.contains { alternatives in
            alternatives.contains { if case .equality = $0 { true } else { false } }
        }
        guard members.count >= 2, listsEqualities else { return false }
        return try intersectedCandidates(for: request) != nil
    }

    /// Whether `predicate` is an AND of two or more members, the only shape that can have two
    /// indexed members: checked first, so that the request of every other keystroke (a prefix,
    /// a CONTAINS, a words search) allocates nothing here.
    private static func mayIntersect(_ predicate: FetchPredicate) -> Bool {
        if case .and(let members) = predicate { members.count >= 2 } else { false }
    }

    /// The statements listing the ids of the rows meeting each of `alternatives`, each reading
    /// an index and stopping after ``intersectionSourceLimit`` ids; nil when one has no index.
    private func idSources<R: Record>(
        for alternatives: [FetchPredicate.IndexableCondition], as type: R.Type
    ) throws -> [SQLFragment]? {
        let schema = R.schema
        let limit = DatabaseValue.integer(Int64(Self.intersectionSourceLimit + 1))
        var sources: [SQLFragment] = []
        for alternative in alternatives {
            switch alternative {
            case .keyContains(let keyColumn, let needle):
                guard let index = SQLiteTrigramIndex.index(forQualifiedKey: keyColumn, in: schema),
                      let pattern = SQLiteTrigramIndex.matchPattern(for: needle),
                      try hasTable(index.table)
                else { return nil }
                sources.append(SQLFragment(
                    "SELECT rowid FROM \(index.table) WHERE \(index.table) MATCH ? LIMIT ?", [.text(pattern), limit]))
            case .equality(let column, let predicate):
                guard try hasIndex(leadingWith: column, in: schema) else { return nil }
                let lookup = FetchRequest<R>(predicate: predicate, sortDescriptors: [], fetchLimit: Self.intersectionSourceLimit + 1)
                sources.append(try lookup.select(schema.qualifiedID, in: SQLiteDialect()))
            }
        }
        return sources
    }

    /// The ids `sources` list, ascending and without repeats; nil when they are more than
    /// ``intersectionSourceLimit``. A trigram index and a one-column index list their ids
    /// ascending, so the lists are merged; a list that is not ascending is sorted first.
    private func readIDs(from sources: [SQLFragment]) throws -> [Int64]? {
        var lists: [[Int64]] = []
        var total = 0
        for source in sources {
            var ids: [Int64] = []
            var ascending = true
            try forEachRow(source.sql, StatementArguments(source.arguments)) {
                let id = $0.statement.int64(at: 0)
                if let last = ids.last, last >= id { ascending = false }
                ids.append(id)
            }
            total += ids.count
            guard total <= Self.intersectionSourceLimit else { return nil }
            if !ascending {
                ids.sort()
                ids = Self.union(of: ids, and: [])
            }
            lists.append(ids)
        }
        return lists.reduce([]) { Self.union(of: $0, and: $1) }
    }

    /// The ids in either ascending list (without repeats), ascending.
    static func union(of first: [Int64], and second: [Int64]) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count || j < second.count {
            let next: Int64
            if j == second.count || (i < first.count && first[i] <= second[j]) {
                next = first[i]
                i += 1
            } else {
                next = second[j]
                j += 1
            }
            if next != result.last { result.append(next) }
        }
        return result
    }

    /// The ids in both ascending lists.
    static func intersection(of first: [Int64], and second: [Int64]) -> [Int64] {
        var result: [Int64] = []
        var i = 0
        var j = 0
        while i < first.count, j < second.count {
            if first[i] < second[j] {
                i += 1
            } else if first[i] > second[j] {
                j += 1
            } else {
                result.append(first[i])
                i += 1
                j += 1
            }
        }
        return result
    }

    /// Whether an index of the table begins with the qualified `column` (`product.year`) in
    /// the binary collation an equality compares with, so the equality reads its ids from it
    /// (remembered until the database changes).
    private func hasIndex(leadingWith column: String, in schema: RecordSchema) throws -> Bool {
        let prefix = schema.table + "."
        guard column.hasPrefix(prefix) else { return false }
        let name = String(column.dropFirst(prefix.count))
        return try remembered("index leading with \(column)") {
            try scalar(
                """
                SELECT 1 FROM pragma_index_list(?) AS list JOIN pragma_index_xinfo(list.name) AS info
                WHERE info.seqno = 0 AND info.name = ? AND info.coll = 'BINARY' AND list.partial = 0
                """, [schema.table, name]) as Int? != nil
        }
    }
}

/// The candidates last intersected on a connection, kept until the database changes: one slot,
/// so a connection never holds more than one list of ids.
///
/// Keyed by text that spells out everything the candidates depend on (the table, each member's
/// conditions and values, the narrowed comparison), each part with its length, so two keys are
/// equal only for the same lists. Not by the predicate itself: LeakSanitizer cannot follow a
/// `FetchPredicate` kept in an object (its boxes' pointers carry the case in their spare bits),
/// and reports every one a connection still holds at exit.
private final class IntersectionSlot {
    var last: (key: String, candidates: IntersectedCandidates?)?

    static func key(
        table: String, members: [[FetchPredicate.IndexableCondition]], narrowed: (keyColumn: String, needle: String)
    ) -> String {
        var key = ""
        func append(_ part: String) {
            key += "\(part.utf8.count):\(part);"
        }
        append(table)
        append(narrowed.keyColumn)
        append(narrowed.needle)
        for alternatives in members {
            key += "("
            for condition in alternatives {
                switch condition {
                case .keyContains(let keyColumn, let needle):
                    key += "c"
                    append(keyColumn)
                    append(needle)
                case .equality(let column, let predicate):
                    key += "e"
                    append(column)
                    guard case .comparison(_, _, let value, _) = predicate else { continue }
                    switch value {
                    case .null: key += "n"
                    case .integer(let integer): append("i\(integer)")
                    case .real(let real): append("r\(real.bitPattern)")
                    case .text(let text): append("t" + text)
                    case .blob(let blob): append("b" + blob.map { String($0, radix: 16) }.joined(separator: "."))
                    }
                }
            }
            key += ")"
        }
        return key
    }
}

extension SQLiteDialect.TrigramLookup {
    /// The comparison of a folded key column and text.
    init(_ comparison: (keyColumn: String, needle: String)) {
        self.init(expression: comparison.keyColumn, needle: comparison.needle)
    }
}
