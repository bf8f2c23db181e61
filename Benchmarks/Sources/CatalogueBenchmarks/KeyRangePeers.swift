import CatalogueKit
import Foundation
import GRDB

/// CatalogueKit's `CONTAINS[cd]` page in key order through the key ranges
/// (``SQLiteKeyRangeIndex``), as the raw C API and GRDB run it: the same three statements
/// (the ranges holding the text's trigrams, in order; a range's bounds; the page restricted to a
/// range's keys), prepared before timing, stepped until the page is full.
struct KeyRangePageSQL {
    static let ranges = SQLiteKeyRangeIndex(schema: Product.schema, keyColumn: "name_key")
    static let matchesSQL = ranges.matchingRangesSQL
    static let boundsSQL = ranges.boundsSQL
    /// No next range: SQLite sorts a blob after every text.
    static let openUpperBound = CatalogueKit.DatabaseValue.blob(Data([0xFF]))

    let pattern: String
    let pageSQL: String
    /// The page's arguments before the range's bounds, and where the bounds and LIMIT go.
    let arguments: [CatalogueKit.DatabaseValue]
    let lowerIndex: Int
    let upperIndex: Int
    let limitIndex: Int
    let limit: Int

    /// The statements for `request` (a page in key order with a CONTAINS of 3+ characters).
    init(_ request: CatalogueKit.FetchRequest<Product>) throws {
        let needles = request.predicate.requiredKeyContainsComparisons(in: Product.schema).map(\.needle)
        pattern = SQLiteKeyRangeIndex.matchPattern(for: needles)!
        limit = request.fetchLimit!
        let (lower, upper) = ("\u{E000}lower", "\u{E000}upper")
        var ranged = request
        ranged.predicate = request.predicate
            && .comparison(column: "name_key", operator: .greaterThanOrEqual, value: .text(lower), options: [])
            && .comparison(column: "name_key", operator: .lessThan, value: .text(upper), options: [])
        let fragment = try ranged.selectSQL()
        pageSQL = fragment.sql
        arguments = fragment.arguments
        lowerIndex = arguments.firstIndex(of: .text(lower))!
        upperIndex = arguments.firstIndex(of: .text(upper))!
        limitIndex = arguments.count - 2
    }

    /// The page's arguments for a range, `remaining` rows still wanted.
    func pageArguments(lower: String, upper: String?, remaining: Int) -> [CatalogueKit.DatabaseValue] {
        var values = arguments
        values[lowerIndex] = .text(lower)
        values[upperIndex] = upper.map { .text($0) } ?? Self.openUpperBound
        values[limitIndex] = .integer(Int64(remaining))
        return values
    }
}

extension SearchEngines {
    /// The key range page on the raw C API.
    func rawCKeyRanges(texts: [String]) throws -> Engine {
        let plans = try Dictionary(uniqueKeysWithValues: texts.map { ($0, try KeyRangePageSQL(request($0, .contains))) })
        let matches = try raw.prepare(KeyRangePageSQL.matchesSQL)
        let bounds = try raw.prepare(KeyRangePageSQL.boundsSQL)
        let pageSQL = plans[texts[0]]!.pageSQL
        precondition(plans.values.allSatisfy { $0.pageSQL == pageSQL }, "one page statement for every text")
        let page = try raw.prepare(pageSQL)
        return Engine(name: "raw C API") { text in
            let plan = plans[text]!
            matches.bind([.text(plan.pattern)])
            var rows = 0
            var previous: Int64 = -1
            while rows < plan.limit, matches.step() {
                let range = matches.int64(0)
                guard range != previous else { continue }
                previous = range
                bounds.bind([.integer(range)])
                guard bounds.step() else { break }
                let upper = bounds.isNull(2) ? nil : bounds.string(2)
                page.bind(plan.pageArguments(lower: bounds.string(0), upper: upper, remaining: plan.limit - rows))
                rows += page.products().count
            }
            return rows
        }
    }

    /// The key range page through GRDB: cached statements and `Row` cursors.
    func grdbKeyRanges(texts: [String]) throws -> Engine {
        let plans = try Dictionary(uniqueKeysWithValues: texts.map { ($0, try KeyRangePageSQL(request($0, .contains))) })
        return Engine(name: "GRDB Row cursor") { text in
            let plan = plans[text]!
            return try grdb.inDatabase { db in
                let matches = try db.cachedStatement(sql: KeyRangePageSQL.matchesSQL)
                let bounds = try db.cachedStatement(sql: KeyRangePageSQL.boundsSQL)
                let page = try db.cachedStatement(sql: plan.pageSQL)
                let ranges = try Int64.fetchCursor(matches, arguments: [plan.pattern])
                var rows = 0
                var previous: Int64 = -1
                while rows < plan.limit, let range = try ranges.next() {
                    guard range != previous else { continue }
                    previous = range
                    guard let row = try Row.fetchOne(bounds, arguments: [range]) else { break }
                    let upper: String? = row[2]
                    let values = plan.pageArguments(lower: row[0], upper: upper, remaining: plan.limit - rows)
                    let cursor = try Row.fetchCursor(page, arguments: try grdbArguments(values))
                    while let row = try cursor.next() {
                        _ = Product(id: row[0], name: row[1], type: row[2], year: row[3], price: row[4])
                        rows += 1
                    }
                }
                return rows
            }
        }
    }
}
