import CatalogueCore
import Foundation
import SQLiteStore

extension Connection {
    /// The most rows (offset plus limit) a page reads through the key ranges.
    @usableFromInline static let keyRangePageMaximum = 1_000
    /// The most ranges a page reads before giving up for the other plan: about 1 ms. A text
    /// whose matches are rare among the ranges that hold its trigrams (`lamp 2001`: "lamp" and
    /// "2001" in different names of one range) is found faster through the per-row trigram
    /// index, which then has few candidates.
    static let keyRangeReadLimit = 128
    /// How many ranges' keys a page of one- or two-character texts scans in order before it
    /// looks up the ranges holding them (about 2,000 keys, under 0.1 ms): a common letter fills
    /// its page there, and finding its ranges would cost more than reading them.
    @usableFromInline static let keyRangeShortTextScan = 32
    /// The largest capped count read through the key ranges ("more than 1,000 items" counts
    /// 1,001).
    static let keyRangeCountMaximum = 1_001
    /// The most ranges a capped count of a text of three characters or more reads before it
    /// gives up for the trigram index (about 0.5 ms): a common text counts 1,001 matches in
    /// fewer.
    static let keyRangeCountReadLimit = 32
    /// The most trigrams starting with a one- or two-character text that a page looks for (an
    /// OR of them): beyond, the text is common and the ordered scan finds its page quickly.
    static let keyRangeShortTextTermLimit = 200

    /// A page of `request` read through the key ranges (``SQLiteKeyRangeIndex``) of its
    /// `CONTAINS[cd]`, each row made by `transform`; nil when they do not serve it, and the
    /// request is planned as before. They serve a request that:
    /// - has a fetch limit, with offset and limit together at most ``keyRangePageMaximum``;
    /// - sorts first by a folded key, ascending (the catalogue's display order does);
    /// - requires every match to contain one or more texts in that key
    ///   (``FetchPredicate/requiredKeyContainsComparisons(in:)``): of three or more characters,
    ///   or, when there is none, of one or two;
    /// - and whose table has the index.
    ///
    /// The ranges holding every trigram of those texts come in key order (for a text of one or
    /// two characters, any trigram that starts with it); for each, the request runs restricted
    /// to the range's keys (`key >= first AND key < next range's first`, which the key's index
    /// answers in order), until the page is full. Ranges hold their keys in the order the
    /// request sorts by, and no match lies outside them, so the rows and their order are the
    /// request's own. After ``keyRangeReadLimit`` ranges without a full page, nil. Texts of one
    /// or two characters first scan the keys of the first `shortTextScan` ranges, where a
    /// common text fills its page.
    @usableFromInline
    func fetchPageThroughKeyRanges<R: Record, T>(
        _ request: FetchRequest<R>, select: (FetchRequest<R>) throws -> SQLFragment,
        shortTextScan: Int = keyRangeShortTextScan, maximum: Int = keyRangePageMaximum, _ transform: (Row) throws -> T
    ) throws -> [T]? {
        guard let limit = request.fetchLimit, limit > 0, request.fetchOffset >= 0, request.fetchOffset <= maximum - limit,
              let plan = try keyRangePlan(for: request)
        else { return nil }
        return try fetchPage(
            request, through: plan, select: select, shortTextScan: shortTextScan, readLimit: Self.keyRangeReadLimit, transform)
    }

    /// How many records match `request`, counting no further than `limit`, read through the
    /// key ranges as its first `limit` rows in key order are
    /// (``fetchPageThroughKeyRanges(_:select:shortTextScan:maximum:_:)``); nil when they do not
    /// serve it. A text whose matches cluster late in the order (`mo`: 31 ms by the capped
    /// scan at 1,000,000 products), or that no name holds, is counted from a few ranges; a
    /// common text of three characters or more from about 16 (0.3 ms, where the trigram index
    /// takes 2–4 ms). Those give up after ``keyRangeCountReadLimit`` ranges, for the trigram
    /// index, which is quick when the matches are rare.
    @usableFromInline
    func countThroughKeyRanges<R: Record>(_ request: FetchRequest<R>, stoppingAfter limit: Int) throws -> Int? {
        guard limit > 0, limit <= Self.keyRangeCountMaximum, let plan = try keyRangePlan(for: request) else { return nil }
        var counting = request
        counting.fetchLimit = limit
        counting.fetchOffset = 0
        return try fetchPage(
            counting, through: plan, select: { try $0.select(R.schema.qualifiedID, in: SQLiteDialect()) },
            shortTextScan: Self.keyRangeShortTextScan,
            readLimit: plan.pattern == nil ? Self.keyRangeReadLimit : Self.keyRangeCountReadLimit, { _ in () }
        )?.count
    }

    /// The page of `request` through the ranges `plan` names; nil after `readLimit` ranges
    /// without a full page.
    private func fetchPage<R: Record, T>(
        _ request: FetchRequest<R>, through plan: KeyRangePlan, select: (FetchRequest<R>) throws -> SQLFragment,
        shortTextScan: Int, readLimit: Int, _ transform: (Row) throws -> T
    ) throws -> [T]? {
        let wanted = request.fetchOffset + (request.fetchLimit ?? 0)
        var rows: [T] = []
        rows.reserveCapacity(wanted)
        // Compiled at the first range: a text no range holds needs no SQL.
        var page: (sql: SQLFragment, lower: Int, upper: Int, limit: Int)?
        var arguments: [DatabaseValue] = []
        /// Reads the matches among the keys from `lower` up to `upper` (nil: to the end).
        func read(from lower: String, upTo upper: String?) throws -> Bool {
            if page == nil {
                guard let template = try keyRangePageTemplate(request, index: plan.index, select: select) else { return false }
                page = template
                arguments = template.sql.arguments
            }
            guard let page else { return false }
            arguments[page.lower] = .text(lower)
            // No next range: a blob, which SQLite sorts after every text.
            arguments[page.upper] = upper.map { .text($0) } ?? .blob(Data([0xFF]))
            arguments[page.limit] = .integer(Int64(wanted - rows.count))
            try forEachRow(page.sql.sql, StatementArguments(arguments)) { rows.append(try transform($0)) }
            return true
        }
        var pattern = plan.pattern
        var firstRange: Int64 = 0
        if pattern == nil {
            // Texts of one or two characters: the first ranges' keys, then the ranges holding a
            // trigram that starts with each text.
            let end = try fetchOne(plan.index.rangeAtPositionSQL, [shortTextScan]) {
                ($0.statement.int64(at: 0), $0.statement.string(at: 1))
            }
            guard try read(from: "", upTo: end?.1) else { return nil }
            guard let end, rows.count < wanted else { return Self.page(rows, dropping: request.fetchOffset) }
            firstRange = end.0
            switch try shortTextRanges(plan.shortTexts, index: plan.index) {
            case .matching(let found): pattern = found
            case .nowhere: return Self.page(rows, dropping: request.fetchOffset)
            case .leftToScan: return nil
            }
        }
        guard let pattern else { return nil }
        let matches = try cachedStatement(plan.index.matchingRangesSQL)
        try matches.bind([pattern, firstRange])
        defer { matches.reset() }
        var previous: Int64 = -1
        var rangesRead = 0
        while try matches.step() {
            let rangeID = matches.int64(at: 0)
            guard rangeID != previous else { continue }
            previous = rangeID
            rangesRead += 1
            guard rangesRead <= readLimit,
                  let (lower, upper) = try fetchOne(plan.index.boundsSQL, [rangeID], {
                      ($0.statement.string(at: 0), $0.statement.isNull(at: 2) ? nil : $0.statement.string(at: 2))
                  }),
                  try read(from: lower, upTo: upper)
            else { return nil }
            if rows.count >= wanted { break }
        }
        return Self.page(rows, dropping: request.fetchOffset)
    }

    /// The rows after the first `offset`.
    private static func page<T>(_ rows: [T], dropping offset: Int) -> [T] {
        rows.count > offset ? Array(rows.dropFirst(offset)) : []
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

    /// How a page reads the key ranges (see
    /// ``fetchPageThroughKeyRanges(_:select:shortTextScan:maximum:_:)``): the
    /// index, and the FTS5 query for the ranges holding every trigram of its texts of three
    /// characters or more; or, when it has none, its texts of one or two characters.
    private struct KeyRangePlan {
        let index: SQLiteKeyRangeIndex
        let pattern: String?
        let shortTexts: [String]
    }

    /// The key range plan that serves `request`'s page, if any.
    private func keyRangePlan<R: Record>(for request: FetchRequest<R>) throws -> KeyRangePlan? {
        let schema = R.schema
        // Most requests (every prefix search) have no CONTAINS: they leave first, before any
        // name is built.
        let comparisons = request.predicate.requiredKeyContainsComparisons(in: schema)
        guard !comparisons.isEmpty, let first = request.sortDescriptors.first, let column = first.column,
              first.ascending, first.options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
              let qualifiedKey = schema.qualifiedColumns[key],
              let index = SQLiteKeyRangeIndex.index(forQualifiedKey: qualifiedKey, in: schema)
        else { return nil }
        let needles = comparisons.filter { $0.keyColumn == qualifiedKey }.map(\.needle)
        let long = needles.filter { SQLiteTrigramIndex.matchPattern(for: $0) != nil }
        if !long.isEmpty {
            guard let pattern = SQLiteKeyRangeIndex.matchPattern(for: long), try hasKeyRanges(index, terms: false) else { return nil }
            return KeyRangePlan(index: index, pattern: pattern, shortTexts: [])
        }
        let short = needles.filter(SQLiteKeyRangeIndex.isShortText)
        guard !short.isEmpty, try hasKeyRanges(index, terms: true) else { return nil }
        return KeyRangePlan(index: index, pattern: nil, shortTexts: short)
    }

    /// Which ranges can hold texts of one or two characters.
    private enum ShortTextRanges {
        /// Those matching this FTS5 query: for each text, a trigram that starts with it.
        case matching(String)
        /// None: no key holds a text.
        case nowhere
        /// Not looked for: a text starts more than ``keyRangeShortTextTermLimit`` trigrams (it
        /// is common, and the ordered scan finds it soon), or one holding NUL (not quoted).
        case leftToScan
    }

    /// The ranges that can hold every one of `texts` (one or two characters each).
    private func shortTextRanges(_ texts: [String], index: SQLiteKeyRangeIndex) throws -> ShortTextRanges {
        var patterns: [String] = []
        for text in texts {
            let terms = try fetchAll(index.shortTextTermsSQL, [text, SQLiteKeyRangeIndex.shortTextTermBound(text)]) {
                $0.statement.string(at: 0)
            }
            guard terms.count <= Self.keyRangeShortTextTermLimit, !terms.contains(where: { $0.unicodeScalars.contains("\0") })
            else { return .leftToScan }
            guard let pattern = SQLiteKeyRangeIndex.matchPattern(forShortText: text, terms: terms) else { return .nowhere }
            patterns.append(pattern)
        }
        return .matching(patterns.joined(separator: " AND "))
    }

    /// Whether this database has `index`, and with `terms`, its term table: an index built
    /// before migration 0007 has none, and its documents do not end with the newlines that
    /// short texts need.
    private func hasKeyRanges(_ index: SQLiteKeyRangeIndex, terms: Bool) throws -> Bool {
        let tables = terms ? [index.rangeTable, index.trigramTable, index.termTable] : [index.rangeTable, index.trigramTable]
        return try remembered("key ranges \(tables.joined(separator: " "))") {
            let found: Int? = try scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (\(tables.map { _ in "?" }.joined(separator: ", ")))",
                StatementArguments(tables.map { .text($0) }))
            return found == tables.count
        }
    }
}
