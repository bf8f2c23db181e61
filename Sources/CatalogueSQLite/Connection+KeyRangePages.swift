import CatalogueCore
import Foundation
import SQLiteStore

extension Connection {
    /// The most rows (offset plus limit) a page reads through the key ranges.
    static let keyRangePageMaximum = 1_000
    /// The most ranges a page reads before giving up for the other plan: about 1 ms. A text
    /// whose matches are rare among the ranges that hold its trigrams (`lamp 2001`: "lamp" and
    /// "2001" in different names of one range) is found faster through the per-row trigram
    /// index, which then has few candidates.
    static let keyRangeReadLimit = 128

    /// A page of `request` read through the key ranges (``SQLiteKeyRangeIndex``) of its
    /// `CONTAINS[cd]`, each row made by `transform`; nil when they do not serve it, and the
    /// request is planned as before. They serve a request that:
    /// - has a fetch limit, with offset and limit together at most ``keyRangePageMaximum``;
    /// - sorts first by a folded key, ascending (the catalogue's display order does);
    /// - requires every match to contain one or more texts of three or more characters in that
    ///   key (``FetchPredicate/requiredKeyContainsComparisons(in:)``);
    /// - and whose table has the index.
    ///
    /// The ranges holding every trigram of those texts come in key order; for each, the request
    /// runs restricted to the range's keys (`key >= first AND key < next range's first`, which
    /// the key's index answers in order), until the page is full. Ranges hold their keys in the
    /// order the request sorts by, and no match lies outside them, so the rows and their order
    /// are the request's own. After ``keyRangeReadLimit`` ranges without a full page, nil.
    @usableFromInline
    func fetchPageThroughKeyRanges<R: Record, T>(
        _ request: FetchRequest<R>, select: (FetchRequest<R>) throws -> SQLFragment, _ transform: (Row) throws -> T
    ) throws -> [T]? {
        guard let limit = request.fetchLimit, limit > 0, request.fetchOffset + limit <= Self.keyRangePageMaximum,
              let plan = try keyRangePlan(for: request)
        else { return nil }
        let wanted = request.fetchOffset + limit
        let matches = try cachedStatement(plan.index.matchingRangesSQL)
        try matches.bind([plan.pattern])
        defer { matches.reset() }
        var rows: [T] = []
        rows.reserveCapacity(wanted)
        // Compiled at the first range: a text no range holds needs no SQL.
        var page: (sql: SQLFragment, lower: Int, upper: Int, limit: Int)?
        var arguments: [DatabaseValue] = []
        var previous: Int64 = -1
        var rangesRead = 0
        while try matches.step() {
            let rangeID = matches.int64(at: 0)
            guard rangeID != previous else { continue }
            previous = rangeID
            rangesRead += 1
            guard rangesRead <= Self.keyRangeReadLimit,
                  let (lower, upper) = try fetchOne(plan.index.boundsSQL, [rangeID], {
                      ($0.statement.string(at: 0), $0.statement.isNull(at: 2) ? nil : $0.statement.string(at: 2))
                  })
            else { return nil }
            if page == nil {
                guard let template = try keyRangePageTemplate(request, index: plan.index, select: select) else { return nil }
                page = template
                arguments = template.sql.arguments
            }
            guard let page else { return nil }
            arguments[page.lower] = .text(lower)
            // No next range: a blob, which SQLite sorts after every text.
            arguments[page.upper] = upper.map { .text($0) } ?? .blob(Data([0xFF]))
            arguments[page.limit] = .integer(Int64(wanted - rows.count))
            try forEachRow(page.sql.sql, StatementArguments(arguments)) { rows.append(try transform($0)) }
            if rows.count >= wanted { break }
        }
        return rows.count > request.fetchOffset ? Array(rows.dropFirst(request.fetchOffset)) : []
    }

    /// `request` restricted to a range of keys, compiled once for every range of a page: its
    /// SQL, and where its arguments hold the range's bounds and the LIMIT (placeholders found
    /// by value). Nil if a placeholder is not found exactly once.
    private func keyRangePageTemplate<R: Record>(
        _ request: FetchRequest<R>, index: SQLiteKeyRangeIndex, select: (FetchRequest<R>) throws -> SQLFragment
    ) throws -> (sql: SQLFragment, lower: Int, upper: Int, limit: Int)? {
        let lower = DatabaseValue.text("\u{F8FF}lower bound")
        let upper = DatabaseValue.text("\u{F8FF}upper bound")
        let limit = DatabaseValue.integer(Int64(Self.keyRangePageMaximum) + 7_919)
        var ranged = request
        ranged.predicate = request.predicate
            && .comparison(column: index.keyColumn, operator: .greaterThanOrEqual, value: lower, options: [])
            && .comparison(column: index.keyColumn, operator: .lessThan, value: upper, options: [])
        ranged.fetchLimit = Self.keyRangePageMaximum + 7_919
        ranged.fetchOffset = 0
        let sql = try select(ranged)
        func only(_ value: DatabaseValue) -> Int? {
            let found = sql.arguments.indices.filter { sql.arguments[$0] == value }
            return found.count == 1 ? found[0] : nil
        }
        guard let lowerIndex = only(lower), let upperIndex = only(upper), let limitIndex = only(limit) else { return nil }
        return (sql, lowerIndex, upperIndex, limitIndex)
    }

    /// The key range index and FTS5 query that serve `request`'s page, if any (see
    /// ``fetchPageThroughKeyRanges(_:select:_:)``).
    private func keyRangePlan<R: Record>(for request: FetchRequest<R>) throws -> (index: SQLiteKeyRangeIndex, pattern: String)? {
        let schema = R.schema
        // Most requests (every prefix search) have no CONTAINS: they leave first, before any
        // name is built.
        let comparisons = request.predicate.requiredKeyContainsComparisons(in: schema)
        guard !comparisons.isEmpty, let first = request.sortDescriptors.first, let column = first.column,
              first.ascending, first.options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
              let qualifiedKey = schema.qualifiedColumns[key],
              let index = SQLiteKeyRangeIndex.index(forQualifiedKey: qualifiedKey, in: schema)
        else { return nil }
        let needles = comparisons
            .filter { $0.keyColumn == qualifiedKey && SQLiteTrigramIndex.matchPattern(for: $0.needle) != nil }
            .map(\.needle)
        guard let pattern = SQLiteKeyRangeIndex.matchPattern(for: needles),
              try remembered("key ranges \(index.rangeTable)", {
                  try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
                             [index.rangeTable, index.trigramTable]) as Int? == 2
              })
        else { return nil }
        return (index, pattern)
    }
}
