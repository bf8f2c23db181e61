import CatalogueCore
import Foundation
import SQLiteStore

/// SQLite's SQL for the parts of a request that differ between engines: `?` parameters,
/// `instr` for CONTAINS, FTS5 `MATCH` and `rank`, `LIMIT -1`, and the `catalogue_fold`
/// function registered on every connection for columns without a stored key.
///
/// A connection plans each request's `CONTAINS[cd]` comparisons (``Connection/plannedDialect(for:work:)``):
/// a selective text finds its candidates through the key's trigram index
/// (``SQLiteTrigramIndex``), a common one scans the key index in order.
///
/// ```swift
/// let select = try CatalogueSearch.products(matching: "ip").selectSQL(in: SQLiteDialect())
/// ```
public struct SQLiteDialect: SQLDialect {
    /// The CONTAINS comparisons (qualified key column, folded text) answered through a trigram
    /// index, and the index to use; every other CONTAINS scans.
    var trigramLookups: [TrigramLookup: SQLiteTrigramIndex] = [:]

    /// The rows that can match, from the intersection of the request's indexed conditions, and
    /// the CONTAINS comparison narrowed to them (``Connection/intersectedCandidates(for:)``).
    var intersectedCandidates: IntersectedCandidates?

    /// A CONTAINS comparison as the compiler writes it.
    struct TrigramLookup: Hashable, Sendable {
        let expression: String
        let needle: String
    }

    /// Name of the SQL function that folds text on the catalogue's connections:
    /// `catalogue_fold(text, options)`, options 1 = case, 2 = diacritics, 3 = both. Used in
    /// queries on columns without a stored key; never in the schema.
    public static let foldFunctionName = "catalogue_fold"

    /// SQLite's dialect (it has no settings).
    public init() {}

    public var placeholderStyle: PlaceholderStyle { .questionMark }
    public var trueCondition: String { "1" }
    public var falseCondition: String { "0" }
    public var unlimited: DatabaseValue { .integer(-1) }
    public var isDistinctFrom: String { "IS NOT" }

    /// `expression >= ? AND expression < ?`. When the prefix has no successor (empty, or only
    /// U+10FFFF) the upper bound is a blob: SQLite sorts every text before every blob, so the
    /// range has no upper end, and the SQL stays the same whatever the text.
    public func appendPrefixRange(_ expression: String, prefix: String, into sql: inout SQLBuilder) {
        let upper: DatabaseValue = FetchPredicate.prefixSuccessor(of: prefix).map { .text($0) } ?? .blob(Data([0xFF]))
        sql.append(expression)
        sql.append(" >= ")
        sql.bind(.text(prefix))
        sql.append(" AND ")
        sql.append(expression)
        sql.append(" < ")
        sql.bind(upper)
    }

    /// `instr(expression, ?) > 0`: no LIKE, so `%`, `_` and `\` are literal. When the plan says
    /// so, the rows are first narrowed to the trigram index's candidates:
    /// `table.id IN (SELECT rowid FROM table_key_trigram WHERE table_key_trigram MATCH ?) AND instr(…)`.
    /// The candidates hold every match (each has all the text's trigrams), and `instr` keeps
    /// exactly the matches, so the rows are the same either way. The comparison the plan narrows
    /// to an intersection of indexes' ids is written
    /// `table.id IN (SELECT value FROM json_each(?)) AND instr(…)`, the ids bound as one JSON
    /// array.
    public func appendContains(_ expression: String, _ needle: String, into sql: inout SQLBuilder) {
        let lookup = TrigramLookup(expression: expression, needle: needle)
        if let candidates = intersectedCandidates, candidates.comparison == lookup {
            sql.append(candidates.qualifiedID)
            sql.append(" IN (SELECT value FROM json_each(")
            sql.bind(.text(candidates.json))
            sql.append(")) AND ")
        } else if let index = trigramLookups[lookup],
           let pattern = SQLiteTrigramIndex.matchPattern(for: needle) {
            sql.append(index.qualifiedID)
            sql.append(" IN (SELECT rowid FROM ")
            Self.appendMatches(in: index.table, pattern, into: &sql)
            sql.append(") AND ")
        }
        sql.append("instr(")
        sql.append(expression)
        sql.append(", ")
        sql.bind(.text(needle))
        sql.append(") > 0")
    }

    /// `expression GLOB ?`: SQLite's case-sensitive wildcard match (the expression and pattern
    /// are folded alike beforehand for `[c]`, `[d]`, `[cd]`).
    public func appendLike(_ expression: String, _ pattern: LikePattern, into sql: inout SQLBuilder) {
        sql.append(expression)
        sql.append(" GLOB ")
        sql.bind(.text(pattern.globPattern))
    }

    /// `catalogue_matches(column, ?, options) = 1`: ICU regular expressions (Foundation's
    /// `NSRegularExpression`, as NSPredicate uses), the whole value matched, `.` matching any
    /// character (a line break too, as on PostgreSQL). `[cd]` on a column with a folded key
    /// matches the key case-insensitively, as PostgreSQL does, so that "Straße" is matched as
    /// its key "strasse" on both engines.
    public func appendMatches(
        column: String, key: String?, _ regularExpression: String, options: ComparisonOptions, into sql: inout SQLBuilder
    ) throws {
        var (target, matched) = (column, options)
        if options == .caseAndDiacriticInsensitive, let key { (target, matched) = (key, .caseInsensitive) }
        sql.append("\(Self.matchesFunctionName)(\(target), ")
        sql.bind(.text(regularExpression))
        sql.append(", \(matched.rawValue)) = 1")
    }

    /// Name of the SQL function behind MATCHES: `catalogue_matches(text, pattern, options)`.
    public static let matchesFunctionName = "catalogue_matches"

    /// `substr(expression, -?) = ? AND length(expression) >= ?`.
    public func appendEndsWith(_ expression: String, _ suffix: String, into sql: inout SQLBuilder) {
        let length = DatabaseValue.integer(Int64(suffix.unicodeScalars.count))
        sql.append("substr(")
        sql.append(expression)
        sql.append(", -")
        sql.bind(length)
        sql.append(") = ")
        sql.bind(.text(suffix))
        sql.append(" AND length(")
        sql.append(expression)
        sql.append(") >= ")
        sql.bind(length)
    }

    /// `catalogue_fold(expression, options)`.
    public func foldedExpression(_ expression: String, options: ComparisonOptions) throws -> String {
        "\(Self.foldFunctionName)(\(expression), \(options.rawValue))"
    }

    /// `table.id IN (SELECT rowid FROM table_fts WHERE table_fts MATCH ?)`.
    public func appendFullTextMatch(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws {
        let fts = try fullTextTable(schema)
        sql.append(schema.qualifiedID)
        sql.append(" IN (SELECT rowid FROM ")
        Self.appendMatches(in: fts, pattern.fts5Pattern, into: &sql)
        sql.append(")")
    }

    /// `(SELECT count(*) FROM (SELECT 1 FROM table_fts WHERE table_fts MATCH ? LIMIT ?))`: the
    /// FTS5 index's matches, without reading a row.
    public func appendMatchCount(
        _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws {
        let fts = try fullTextTable(schema)
        sql.append("(SELECT count(*) FROM (SELECT 1 FROM ")
        Self.appendMatches(in: fts, pattern.fts5Pattern, into: &sql)
        sql.append(" LIMIT ")
        sql.bind(.integer(Int64(limit)))
        sql.append("))")
    }

    /// `(SELECT count(*) FROM table_fts WHERE table_fts MATCH ?)`, or with `limit`
    /// ``appendMatchCount(_:schema:stoppingAfter:into:)``: the FTS5 index holds a row for every
    /// record (the table's triggers keep it so), so its matches are the records' and no record
    /// row is read. A cold count of `"lamp"*` at 1,000,000 products stopping at 1,001 reads
    /// 1,001 scattered rows through the join (4.8 ms against 1.7 ms); an exact one, 22,260
    /// (38.7 against 3.0 ms).
    ///
    /// When a statement of the same read transaction has collected the matches (the page before
    /// the count, ``FullTextMembership``), their number is taken instead:
    /// `coalesce(min(catalogue_known_match_count('table_fts', ?), ?), <the count>)` (without the
    /// `min` when there is no limit). A prefix of four letters or more is read in full before its
    /// first match even when the count stops at 1,001: a whole `catalogue search lamp --match
    /// words` at 1,000,000 products runs 91 M instructions so, against 99 M.
    public func appendIndexOnlyMatchCount(
        _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int?, into sql: inout SQLBuilder
    ) throws -> Bool {
        let fts = try fullTextTable(schema)
        let knowsCollected = FullTextMembership.isPlainIdentifier(fts)
        if knowsCollected {
            sql.append("coalesce(")
            if limit != nil { sql.append("min(") }
            sql.append("\(FullTextMembership.knownCountFunctionName)('\(fts)', ")
            sql.bind(.text(pattern.fts5Pattern))
            sql.append(")")
            if let limit {
                sql.append(", ")
                sql.bind(.integer(Int64(limit)))
                sql.append(")")
            }
            sql.append(", ")
        }
        if let limit {
            try appendMatchCount(pattern, schema: schema, stoppingAfter: limit, into: &sql)
        } else {
            sql.append("(SELECT count(*) FROM ")
            Self.appendMatches(in: fts, pattern.fts5Pattern, into: &sql)
            sql.append(")")
        }
        if knowsCollected { sql.append(")") }
        return true
    }

    /// For a tier of relevance read in the key's order, so that SQLite keeps reading the key's
    /// index in order and stops at the page:
    /// - when the pattern is cheap to check for one row (``checksCheaplyPerRow(_:)``), `EXISTS
    ///   (SELECT 1 FROM table_fts WHERE table_fts MATCH ? AND table_fts.rowid = table.id)`: one
    ///   check per row, in microseconds;
    /// - otherwise ``appendCollectedFullTextCheck(_:schema:countedIn:into:)``: the matches are
    ///   collected once, when the first row is checked, or taken from the count `table` (a check
    ///   of a longer prefix would merge every term that starts with it, for each row).
    public func appendFullTextCheck(
        _ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder
    ) throws {
        let fts = try fullTextTable(schema)
        guard Self.checksCheaplyPerRow(pattern) else {
            return try appendCollectedFullTextCheck(pattern, schema: schema, countedIn: table, into: &sql)
        }
        sql.append("EXISTS (SELECT 1 FROM ")
        Self.appendMatches(in: fts, pattern.fts5Pattern, into: &sql)
        sql.append(" AND ")
        sql.append(fts)
        sql.append(".rowid = ")
        sql.append(schema.qualifiedID)
        sql.append(")")
    }

    /// `catalogue_in_matches(table.id, 'table_fts', ?)` (``FullTextMembership``): the matches
    /// are collected once, when the first row is checked, and each row is looked up among
    /// them; SQLite keeps reading the other index in order (a function cannot drive a lookup by
    /// id). It answers as `+table.id IN (SELECT rowid FROM table_fts WHERE table_fts MATCH ?)`
    /// would, at a fraction of the cost per match and per row. With a count `table`
    /// (``appendMatchCountTable(named:_:schema:stoppingAfter:into:)``),
    /// `catalogue_in_matches(table.id, 'table_fts', ?, (SELECT collected FROM table))`: the
    /// matches the count collected, when the patterns are the same (else the call collects its
    /// own). A table whose name is not a plain identifier
    /// (``FullTextMembership/isPlainIdentifier(_:)``) gets the `IN` list.
    public func appendCollectedFullTextCheck(
        _ pattern: FullTextPattern, schema: RecordSchema, countedIn table: String?, into sql: inout SQLBuilder
    ) throws {
        let fts = try fullTextTable(schema)
        guard FullTextMembership.isPlainIdentifier(fts) else {
            sql.append("+")
            return try appendFullTextMatch(pattern, schema: schema, into: &sql)
        }
        sql.append(FullTextMembership.functionName)
        sql.append("(")
        sql.append(schema.qualifiedID)
        sql.append(", '")
        sql.append(fts)
        sql.append("', ")
        sql.bind(.text(pattern.fts5Pattern))
        if let table {
            sql.append(", (SELECT collected FROM ")
            sql.append(table)
            sql.append(")")
        }
        sql.append(")")
    }

    /// `name_set AS MATERIALIZED (SELECT catalogue_collect_matches('table_fts', ?) AS collected),
    /// name AS MATERIALIZED (SELECT catalogue_collected_count(collected, 'table_fts', ?) AS
    /// matches, collected FROM name_set)` (``FullTextMembership``): the matches are collected
    /// once, counted (all of them, past `limit`), and looked up by the statement's row checks
    /// that name `name`. A ranked words page that reads its third tier in order would otherwise
    /// read the matches from the index twice, once for the count and once for the checks: for
    /// `lamp` at 1,000,000 products the collection costs about 23 M instructions, and the count
    /// it replaces cost 15 M. A table whose name is not a plain identifier gets the default
    /// count table.
    public func appendMatchCountTable(
        named name: String, _ pattern: FullTextPattern, schema: RecordSchema, stoppingAfter limit: Int, into sql: inout SQLBuilder
    ) throws {
        let fts = try fullTextTable(schema)
        guard FullTextMembership.isPlainIdentifier(fts) else {
            return try appendCountingMatchCountTable(named: name, pattern, schema: schema, stoppingAfter: limit, into: &sql)
        }
        let setTable = name + "_set"
        sql.append("\(setTable) AS MATERIALIZED (SELECT \(FullTextMembership.collectFunctionName)('\(fts)', ")
        sql.bind(.text(pattern.fts5Pattern))
        sql.append(") AS collected), \(name) AS MATERIALIZED (SELECT \(FullTextMembership.collectedCountFunctionName)(collected, '\(fts)', ")
        sql.bind(.text(pattern.fts5Pattern))
        sql.append(") AS matches, collected FROM \(setTable))")
    }

    /// Whether FTS5 checks `pattern` for one row in microseconds: FTS5 opens each term of the
    /// pattern for every row it checks, so each word's prefix must be one term to open, and
    /// its typo alternatives (whole words, one term each) few. A word's prefix is one term
    /// when the word has at most ``checkedWordLength`` characters (the product index's prefix
    /// indexes, migration 0005, hold those prefixes) or begins no indexed word
    /// (``FullTextPattern/beginsIndexedWord``: the usual typo, "montral", whose prefix merges
    /// nothing). Otherwise each check would merge every term the prefix begins.
    ///
    /// ```swift
    /// SQLiteDialect.checksCheaplyPerRow(FullTextPattern(matchingAllPrefixesIn: "la")!)    // true
    /// SQLiteDialect.checksCheaplyPerRow(FullTextPattern(matchingAllPrefixesIn: "lamp")!)  // false
    /// ```
    public static func checksCheaplyPerRow(_ pattern: FullTextPattern) -> Bool {
        let alternatives = pattern.typoAlternatives ?? []
        guard alternatives.reduce(0, { $0 + $1.count }) <= checkedTypoAlternativeLimit else { return false }
        return pattern.words.indices.allSatisfy { index in
            pattern.words[index].unicodeScalars.count <= checkedWordLength
                || pattern.beginsIndexedWord.map { index < $0.count && !$0[index] } == true
        }
    }

    /// The longest word checked row by row whatever it begins (``checksCheaplyPerRow(_:)``).
    public static let checkedWordLength = 3

    /// The most typo alternatives, over all words, a pattern checked row by row may have
    /// (``checksCheaplyPerRow(_:)``).
    public static let checkedTypoAlternativeLimit = 8

    /// SQLite runs the arms of a `UNION ALL` in order and stops once the outer LIMIT is
    /// reached, so relevance tiers are arms (``RelevanceTiers``).
    public var ranksTiersByUnion: Bool { true }

    /// True: the match source is FTS5's matches in rowid order (``appendMatchSource(_:schema:into:)``).
    public var streamsMatchSource: Bool { true }

    /// `table_fts JOIN table ON table.id = table_fts.rowid WHERE table_fts MATCH ?`, ranked
    /// by FTS5's `rank` (bm25).
    public func appendRankedSource(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws -> String {
        let fts = try fullTextTable(schema)
        sql.append(fts)
        sql.append(" JOIN ")
        sql.append(schema.table)
        sql.append(" ON ")
        sql.append(schema.qualifiedID)
        sql.append(" = ")
        sql.append(fts)
        sql.append(".rowid WHERE ")
        sql.append(fts)
        sql.append(" MATCH ")
        sql.bind(.text(pattern.fts5Pattern))
        return fts + ".rank"
    }

    /// `(SELECT rowid AS catalogue_match_id FROM table_fts WHERE table_fts MATCH ?) AS
    /// catalogue_matches CROSS JOIN table ON table.id = catalogue_matches.catalogue_match_id
    /// WHERE 1`: SQLite flattens the subquery into a join that reads the matches in FTS5's order
    /// (rowids ascending, so `ORDER BY catalogue_matches.catalogue_match_id` sorts nothing) and
    /// stops at the page, where an `IN` list collects every match first; the FTS5 table's
    /// columns stay out of scope.
    ///
    /// `CROSS JOIN` keeps the matches the outer loop: with a plain `JOIN` and another condition
    /// on an indexed column (a product type), SQLite read that index's rows and asked FTS5
    /// whether each matched, so a count of a word no product of the type has read the type's
    /// 125,000 rows at 1,000,000 products (0.48 s, where the matches take 0.1 ms; the exact
    /// count of `a*` in a type 0.94 s against 0.09 s).
    ///
    /// ```swift
    /// let request = FetchRequest<Product>(predicate: .fullText(FullTextPattern(matchingAllPrefixesIn: "caf")!), fetchLimit: 50)
    /// try request.selectSQL().sql
    /// // "SELECT product.id, … FROM (SELECT rowid AS catalogue_match_id FROM product_fts WHERE product_fts MATCH ?)
    /// //  AS catalogue_matches CROSS JOIN product ON product.id = catalogue_matches.catalogue_match_id WHERE 1
    /// //  ORDER BY catalogue_matches.catalogue_match_id LIMIT ? OFFSET ?"
    /// ```
    public func appendMatchSource(_ pattern: FullTextPattern, schema: RecordSchema, into sql: inout SQLBuilder) throws -> String {
        let fts = try fullTextTable(schema)
        sql.append("(SELECT rowid AS catalogue_match_id FROM ")
        Self.appendMatches(in: fts, pattern.fts5Pattern, into: &sql)
        sql.append(") AS catalogue_matches CROSS JOIN ")
        sql.append(schema.table)
        sql.append(" ON ")
        sql.append(schema.qualifiedID)
        sql.append(" = catalogue_matches.catalogue_match_id WHERE ")
        sql.append(trueCondition)
        return "catalogue_matches.catalogue_match_id"
    }

    /// The column itself: SQLite's rows give its first character without making a string.
    public func sectionExpression(_ qualifiedColumn: String) -> String {
        qualifiedColumn
    }

    /// `table WHERE table MATCH ?`, `pattern` bound: how every read of an FTS5 table's matches
    /// names its source and condition.
    private static func appendMatches(in table: String, _ pattern: String, into sql: inout SQLBuilder) {
        sql.append(table)
        sql.append(" WHERE ")
        sql.append(table)
        sql.append(" MATCH ")
        sql.bind(.text(pattern))
    }

    private func fullTextTable(_ schema: RecordSchema) throws -> String {
        guard let fts = schema.fullTextTable else { throw FetchRequestError.noFullTextTable(table: schema.table) }
        return fts
    }
}

extension FullTextPattern {
    /// The FTS5 query: each word a quoted prefix phrase (`"united"* "ki"*`), in a column filter
    /// (`{name aliases} : (…)`) when the pattern names columns; a word with typo alternatives
    /// is a group of them, the words then joined by `AND` (`("columbia"* OR "colombia")`).
    /// Bound as the argument of `MATCH`; the quotes make every word plain text.
    ///
    /// ```swift
    /// FullTextPattern(matchingAllPrefixesIn: "united ki")?.fts5Pattern  // "\"united\"* \"ki\"*"
    /// ```
    public var fts5Pattern: String {
        func quoted(_ word: String) -> String {
            "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        let alternatives = typoAlternatives ?? []
        let phrases = words.indices.map { index in
            let typos = index < alternatives.count ? alternatives[index] : []
            guard !typos.isEmpty else { return quoted(words[index]) + "*" }
            return "(" + ([quoted(words[index]) + "*"] + typos.map(quoted)).joined(separator: " OR ") + ")"
        }.joined(separator: hasTypoAlternatives ? " AND " : " ")  // FTS5 has no implicit AND after a group
        if let columns {
            return "{" + columns.joined(separator: " ") + "} : (" + phrases + ")"
        }
        return phrases
    }
}
