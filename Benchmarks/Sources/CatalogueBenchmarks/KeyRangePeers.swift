import CatalogueKit
import Foundation
import GRDB

/// CatalogueKit's `CONTAINS[cd]` page in key order through the key ranges
/// (``SQLiteKeyRangeIndex``), as the raw C API and GRDB run it, with the same statements,
/// prepared before timing, stepped until the page is full:
/// - three or more characters: the ranges holding the text's trigrams, in order; a range's
///   bounds; the page restricted to a range's keys;
/// - one or two characters: the page restricted to the keys of the first 32 ranges; if it is
///   not full, the trigrams starting with the text (the term table), and then as above from the
///   33rd range.
struct KeyRangePageSQL {
    static let ranges = SQLiteKeyRangeIndex(schema: Product.schema, keyColumn: "name_key")
    static let matchesSQL = ranges.matchingRangesSQL
    static let boundsSQL = ranges.boundsSQL
    static let termsSQL = ranges.shortTextTermsSQL
    static let rangeAtPositionSQL = ranges.rangeAtPositionSQL
    /// The ranges whose keys a short text scans first, as CatalogueKit does.
    static let shortTextScan = 32
    /// No next range: SQLite sorts a blob after every text.
    static let openUpperBound = CatalogueKit.DatabaseValue.blob(Data([0xFF]))

    /// The FTS5 query of a text of three or more characters; nil for a short text.
    let pattern: String?
    /// The folded text, when it has one or two characters.
    let shortText: String?
    let pageSQL: String
    /// The page's arguments before the range's bounds, and where the bounds and LIMIT go.
    let arguments: [CatalogueKit.DatabaseValue]
    let lowerIndex: Int
    let upperIndex: Int
    let limitIndex: Int
    let limit: Int

    /// The statements for `request` (a page in key order with a CONTAINS).
    init(_ request: CatalogueKit.FetchRequest<Product>) throws {
        let needles = request.predicate.requiredKeyContainsComparisons(in: Product.schema).map(\.needle)
        pattern = SQLiteKeyRangeIndex.matchPattern(for: needles)
        shortText = pattern == nil ? needles.first : nil
        precondition(pattern != nil || needles.count == 1 && SQLiteKeyRangeIndex.isShortText(needles[0]), "one text")
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

    /// The terms query's arguments for the short text.
    var termArguments: [CatalogueKit.DatabaseValue] {
        [.text(shortText!), .text(SQLiteKeyRangeIndex.shortTextTermBound(shortText!))]
    }
}

extension SearchEngines {
    /// The key range page on the raw C API.
    func rawCKeyRanges(texts: [String]) throws -> Engine {
        let plans = try Dictionary(uniqueKeysWithValues: texts.map { ($0, try KeyRangePageSQL(request($0, .contains))) })
        let matches = try raw.prepare(KeyRangePageSQL.matchesSQL)
        let bounds = try raw.prepare(KeyRangePageSQL.boundsSQL)
        let terms = try raw.prepare(KeyRangePageSQL.termsSQL)
        let position = try raw.prepare(KeyRangePageSQL.rangeAtPositionSQL)
        let pageSQL = plans[texts[0]]!.pageSQL
        precondition(plans.values.allSatisfy { $0.pageSQL == pageSQL }, "one page statement for every text")
        let page = try raw.prepare(pageSQL)
        return Engine(name: "raw C API") { text in
            let plan = plans[text]!
            var rows = 0
            var pattern = plan.pattern
            var firstRange: Int64 = 0
            if pattern == nil {
                position.bind([.integer(Int64(KeyRangePageSQL.shortTextScan))])
                let end = position.step() ? (id: position.int64(0), first: position.string(1)) : nil
                page.bind(plan.pageArguments(lower: "", upper: end?.first, remaining: plan.limit))
                rows += page.products().count
                guard let end, rows < plan.limit else { return rows }
                firstRange = end.id
                terms.bind(plan.termArguments)
                var found: [String] = []
                while terms.step() { found.append(terms.string(0)) }
                guard let shortPattern = SQLiteKeyRangeIndex.matchPattern(forShortText: plan.shortText!, terms: found) else { return rows }
                pattern = shortPattern
            }
            matches.bind([.text(pattern!), .integer(firstRange)])
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
                var rows = 0
                func read(lower: String, upper: String?) throws {
                    let values = plan.pageArguments(lower: lower, upper: upper, remaining: plan.limit - rows)
                    let cursor = try Row.fetchCursor(page, arguments: try grdbArguments(values))
                    while let row = try cursor.next() {
                        _ = Product(id: row[0], name: row[1], type: row[2], year: row[3], price: row[4])
                        rows += 1
                    }
                }
                var pattern = plan.pattern
                var firstRange: Int64 = 0
                if pattern == nil {
                    let position = try db.cachedStatement(sql: KeyRangePageSQL.rangeAtPositionSQL)
                    let end = try Row.fetchOne(position, arguments: [KeyRangePageSQL.shortTextScan])
                    try read(lower: "", upper: end?[1])
                    guard let end, rows < plan.limit else { return rows }
                    firstRange = end[0]
                    let terms = try String.fetchAll(
                        db.cachedStatement(sql: KeyRangePageSQL.termsSQL), arguments: try grdbArguments(plan.termArguments))
                    guard let shortPattern = SQLiteKeyRangeIndex.matchPattern(forShortText: plan.shortText!, terms: terms) else { return rows }
                    pattern = shortPattern
                }
                let ranges = try Int64.fetchCursor(matches, arguments: [pattern!, firstRange])
                var previous: Int64 = -1
                while rows < plan.limit, let range = try ranges.next() {
                    guard range != previous else { continue }
                    previous = range
                    guard let row = try Row.fetchOne(bounds, arguments: [range]) else { break }
                    try read(lower: row[0], upper: row[2])
                }
                return rows
            }
        }
    }
}
