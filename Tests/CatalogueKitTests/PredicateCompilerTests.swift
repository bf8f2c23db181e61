@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// The SQL and arguments each predicate compiles to. Rows are checked in FetchRequestTests.
@Suite("FetchPredicate compiler")
struct PredicateCompilerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let predicate: FetchPredicate
        let sql: String
        let arguments: [DatabaseValue]
        var testDescription: String { label }

        init(_ label: String, _ predicate: FetchPredicate, _ sql: String, _ arguments: [DatabaseValue] = []) {
            self.label = label
            self.predicate = predicate
            self.sql = sql
            self.arguments = arguments
        }
    }

    static let c = ComparisonOptions.caseInsensitive
    static let d = ComparisonOptions.diacriticInsensitive
    static let cd = ComparisonOptions.caseAndDiacriticInsensitive
    static let nameRange = "country.name_key >= ? AND country.name_key < ?"

    static let comparisonCases: [Case] = [
        Case("== []", .equals("name", "Bolivia"), "country.name = ?", [.text("Bolivia")]),
        Case("== [c]", .equals("name", "BOLIVIA", options: c), "catalogue_fold(country.name, 1) = ?", [.text("bolivia")]),
        Case("== [d]", .equals("capital", "Bogotá", options: d), "catalogue_fold(country.capital, 2) = ?", [.text("Bogota")]),
        Case("== [cd] reads the key", .equals("name", "CÔTE D'IVOIRE", options: cd), "country.name_key = ?", [.text("cote d'ivoire")]),
        Case("== nil", .equals("capital", nil), "country.capital IS NULL"),
        Case("== nil [cd]", .equals("capital", nil, options: cd), "country.capital IS NULL"),
        Case("!= []", .notEquals("name", "Bolivia"), "country.name IS NOT ?", [.text("Bolivia")]),
        Case("!= [cd]", .notEquals("name", "BOLIVIA", options: cd), "country.name_key IS NOT ?", [.text("bolivia")]),
        Case("!= nil", .notEquals("capital", nil), "country.capital IS NOT NULL"),
        Case("<", .lessThan("population", 1000), "country.population < ?", [.integer(1000)]),
        Case("<=", .lessThanOrEqual("population", 1000), "country.population <= ?", [.integer(1000)]),
        Case(">", .greaterThan("area_km2", 2.5), "country.area_km2 > ?", [.real(2.5)]),
        Case(">=", .greaterThanOrEqual("population", 7), "country.population >= ?", [.integer(7)]),
        Case("< on text", .lessThan("name", "B"), "country.name < ?", [.text("B")]),
        Case("options ignored for numbers", .equals("population", 5, options: cd), "country.population = ?", [.integer(5)]),
        Case("between", .between("population", 10, 20), "country.population BETWEEN ? AND ?", [.integer(10), .integer(20)]),
        Case("in []", .in("code", ["CI", "TR"]), "country.code IN (?, ?)", [.text("CI"), .text("TR")]),
        Case("in [cd]", .in("name", ["Türkiye", "PERU"], options: cd), "country.name_key IN (?, ?)", [.text("turkiye"), .text("peru")]),
        Case("in [c] without key", .in("continent", ["EUROPE", "Asia"], options: c),
             "catalogue_fold(country.continent, 1) IN (?, ?)", [.text("europe"), .text("asia")]),
        Case("in empty", .in("code", []), "0"),
        Case("beginsWith []", .beginsWith("name", "Bo"), "country.name >= ? AND country.name < ?", [.text("Bo"), .text("Bp")]),
        Case("beginsWith [cd]", .beginsWith("name", "Bo", options: cd), nameRange, [.text("bo"), .text("bp")]),
        Case("beginsWith [c] narrows with the key", .beginsWith("name", "BO", options: c),
             nameRange + " AND catalogue_fold(country.name, 1) >= ? AND catalogue_fold(country.name, 1) < ?",
             [.text("bo"), .text("bp"), .text("bo"), .text("bp")]),
        Case("beginsWith [d] narrows with the key", .beginsWith("name", "Bó", options: d),
             nameRange + " AND catalogue_fold(country.name, 2) >= ? AND catalogue_fold(country.name, 2) < ?",
             [.text("bo"), .text("bp"), .text("Bo"), .text("Bp")]),
        Case("beginsWith [cd] without key", .beginsWith("continent", "EU", options: cd),
             "catalogue_fold(country.continent, 3) >= ? AND catalogue_fold(country.continent, 3) < ?",
             [.text("eu"), .text("ev")]),
        Case("endsWith []", .endsWith("name", "land"), "substr(country.name, -?) = ? AND length(country.name) >= ?",
             [.integer(4), .text("land"), .integer(4)]),
        Case("endsWith [cd]", .endsWith("name", "LÄND", options: cd),
             "substr(country.name_key, -?) = ? AND length(country.name_key) >= ?", [.integer(4), .text("land"), .integer(4)]),
        Case("endsWith [c] without key", .endsWith("official_name", "Land", options: c),
             "substr(catalogue_fold(country.official_name, 1), -?) = ? AND length(catalogue_fold(country.official_name, 1)) >= ?",
             [.integer(4), .text("land"), .integer(4)]),
        Case("endsWith counts scalars", .endsWith("name", "ão"), "substr(country.name, -?) = ? AND length(country.name) >= ?",
             [.integer(2), .text("ão"), .integer(2)]),
        Case("contains []", .contains("name", "and"), "instr(country.name, ?) > 0", [.text("and")]),
        Case("contains [cd]", .contains("name", "ÅND", options: cd), "instr(country.name_key, ?) > 0", [.text("and")]),
        Case("contains [d]", .contains("name", "Å", options: d), "instr(catalogue_fold(country.name, 2), ?) > 0", [.text("A")]),
        Case("contains [cd] without key", .contains("official_name", "RÉP", options: cd),
             "instr(catalogue_fold(country.official_name, 3), ?) > 0", [.text("rep")]),
        Case("a key column by name", .beginsWith("name_key", "bo"), nameRange, [.text("bo"), .text("bp")]),
    ]

    static let compoundCases: [Case] = [
        Case("true", .true, "1"),
        Case("false", .false, "0"),
        Case("and", .and([.equals("code", "CI"), .greaterThan("population", 1)]),
             "(country.code = ?) AND (country.population > ?)", [.text("CI"), .integer(1)]),
        Case("or", .or([.equals("code", "CI"), .equals("code", "TR")]), "(country.code = ?) OR (country.code = ?)",
             [.text("CI"), .text("TR")]),
        Case("not", .not(.equals("code", "CI")), "NOT (country.code = ?)", [.text("CI")]),
        Case("empty and", .and([]), "1"),
        Case("empty or", .or([]), "0"),
        Case("nested", .and([.or([.true, .false]), .not(.true)]), "((1) OR (0)) AND (NOT (1))"),
        Case("anyAlias [cd]", .anyAlias(operator: .beginsWith, value: "Ivory", options: cd),
             "country.id IN (SELECT country_alias.country_id FROM country_alias WHERE country_alias.alias_key >= ? AND country_alias.alias_key < ?)",
             [.text("ivory"), .text("ivorz")]),
        Case("anyAlias [c]", .anyAlias(operator: .equal, value: "UK", options: c),
             "country.id IN (SELECT country_alias.country_id FROM country_alias WHERE catalogue_fold(country_alias.alias, 1) = ?)",
             [.text("uk")]),
        Case("fullText", .fullText(FullTextPattern(matchingAllPrefixesIn: "united ki")!),
             "country.id IN (SELECT rowid FROM country_fts WHERE country_fts MATCH ?)", [.text("\"united\"* \"ki\"*")]),
    ]

    func compile(_ predicate: FetchPredicate, schema: RecordSchema = Country.schema) throws -> SQLFragment {
        var sql = SQLBuilder(dialect: SQLiteDialect())
        try PredicateCompiler(schema: schema, dialect: SQLiteDialect()).compile(predicate, into: &sql)
        return sql.fragment()
    }

    @Test("Comparisons compile to the expected SQL and arguments", arguments: comparisonCases)
    func comparison(_ testCase: Case) throws {
        let fragment = try compile(testCase.predicate)
        #expect(fragment.sql == testCase.sql)
        #expect(fragment.arguments == testCase.arguments)
        #expect(fragment.sql.filter { $0 == "?" }.count == fragment.arguments.count)
    }

    @Test("Compound predicates compile to the expected SQL and arguments", arguments: compoundCases)
    func compound(_ testCase: Case) throws {
        let fragment = try compile(testCase.predicate)
        #expect(fragment.sql == testCase.sql)
        #expect(fragment.arguments == testCase.arguments)
    }

    @Test("A prefix without a successor has a blob upper bound, above every text")
    func emptyPrefixBound() throws {
        for prefix in ["", "\u{10FFFF}", "\u{10FFFF}\u{10FFFF}"] {
            let fragment = try compile(.beginsWith("name", prefix))
            #expect(fragment.sql == "country.name >= ? AND country.name < ?")
            #expect(fragment.arguments == [.text(prefix), .blob(Data([0xFF]))])
        }
    }

    @Test("Text is never part of the SQL")
    func textIsBound() throws {
        let hostile = "x'; DROP TABLE country; --"
        for op in ComparisonOperator.allCases {
            let fragment = try compile(.comparison(column: "name", operator: op, value: .text(hostile), options: []))
            #expect(!fragment.sql.contains("DROP"))
            #expect(fragment.arguments.contains(.text(hostile)))
        }
    }

    @Test("&&, || and ! build flat and/or lists")
    func operators() {
        let a: FetchPredicate = .equals("code", "A")
        let b: FetchPredicate = .equals("code", "B")
        let c: FetchPredicate = .equals("code", "C")
        #expect((a && b && c) == .and([a, b, c]))
        #expect((a || b || c) == .or([a, b, c]))
        #expect(((a && b) && (b && c)) == .and([a, b, b, c]))
        #expect(!a == .not(a))
    }

    @Test("Long and/or lists nest, so SQLite's expression depth limit is not reached")
    func longLists() throws {
        let catalogue = try seededCatalogue()
        let codes = (0..<3_000).map { "Q\($0)" }
        let notAny: FetchPredicate = .and(codes.map { .notEquals("code", $0) })
        let anyOf: FetchPredicate = .or(codes.map { .equals("code", $0) } + [.equals("code", "CI")])
        #expect(try catalogue.read { try $0.fetchCount(FetchRequest<Country>(predicate: notAny)) } == catalogue.rowCount("country"))
        #expect(try catalogue.records(FetchRequest<Country>(predicate: anyOf)).map(\.code) == ["CI"])
        // Short lists stay flat.
        #expect(try compile(.and((0..<3).map { .equals("code", "Q\($0)") })).sql
            == "(country.code = ?) AND (country.code = ?) AND (country.code = ?)")
    }

    @Test("Unknown columns, non-text operands and missing tables are errors")
    func errors() throws {
        #expect(throws: FetchRequestError.unknownColumn("nope", table: "country", known: Country.schema.selection)) {
            try compile(.equals("nope", 1))
        }
        #expect(throws: FetchRequestError.unknownColumn("name; DROP TABLE country", table: "country", known: Country.schema.selection)) {
            try compile(.beginsWith("name; DROP TABLE country", "x"))
        }
        #expect(throws: FetchRequestError.notText("BEGINSWITH", .integer(1))) {
            try compile(.comparison(column: "name", operator: .beginsWith, value: .integer(1), options: []))
        }
        #expect(throws: FetchRequestError.noAliases(table: "product")) {
            try compile(.anyAlias(operator: .equal, value: "x", options: []), schema: Product.schema)
        }
        let noFTS = RecordSchema(table: "plain", columns: ["name"], naturalKey: ["name"])
        #expect(throws: FetchRequestError.noFullTextTable(table: "plain")) {
            try compile(.fullText(FullTextPattern(matchingAllPrefixesIn: "x")!), schema: noFTS)
        }
    }

    @Test("The successor of a prefix", arguments: [
        ("a", "b"), ("bo", "bp"), ("é", "ê"), ("a\u{10FFFF}", "b"), ("ab\u{10FFFF}\u{10FFFF}", "ac"),
        ("\u{D7FF}", "\u{E000}"), ("x\u{D7FF}", "x\u{E000}"), ("\u{FFFF}", "\u{10000}"), ("z", "{"),
    ])
    func successor(prefix: String, expected: String) throws {
        let successor = try #require(PredicateCompiler.successor(of: prefix))
        #expect(Array(successor.unicodeScalars) == Array(expected.unicodeScalars))
        #expect(Bytes.less(prefix, successor))
        // Every string that starts with the prefix sorts before the successor.
        for tail in ["", "a", "\u{10FFFF}", "\u{10FFFF}\u{10FFFF}\u{10FFFF}", "\u{E000}"] {
            #expect(Bytes.less(prefix + tail, successor), "\(prefix.unicodeScalars.map(\.value)) + \(tail.unicodeScalars.map(\.value))")
        }
    }

    @Test("No successor for an empty prefix or one made only of U+10FFFF", arguments: ["", "\u{10FFFF}", "\u{10FFFF}\u{10FFFF}"])
    func noSuccessor(prefix: String) {
        #expect(PredicateCompiler.successor(of: prefix) == nil)
    }
}
