import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// Fetch requests: the whole SELECT they generate, and the rows it returns.
@Suite("Fetch requests")
struct FetchRequestTests {
    static let countryColumns = Country.schema.selection.map { "country.\($0)" }.joined(separator: ", ")
    static let cd = ComparisonOptions.caseAndDiacriticInsensitive
    static let optionSets: [ComparisonOptions] = [[], .caseInsensitive, .diacriticInsensitive, cd]

    let catalogue: Catalogue
    let countries: [Country]

    init() throws {
        catalogue = try seededCatalogue()
        countries = try catalogue.allCountries()
    }

    @Test("BEGINSWITH[cd] on a country name: SQL, arguments and rows")
    func beginsWithCaseAndDiacriticInsensitive() throws {
        let request = FetchRequest<Country>(predicate: .beginsWith("name", "Bo", options: [.caseInsensitive, .diacriticInsensitive]))
        let sql = try request.selectSQL()
        #expect(sql.sql == "SELECT \(Self.countryColumns) FROM country WHERE country.name_key >= ? AND country.name_key < ? ORDER BY country.id LIMIT ? OFFSET ?")
        #expect(sql.arguments == [.text("bo"), .text("bp"), .integer(-1), .integer(0)])
        let names = Set(try catalogue.records(request).map(\.name))
        #expect(names == ["Bolivia", "Bonaire, Sint Eustatius and Saba", "Bosnia and Herzegovina", "Botswana", "Bouvet Island"])
    }

    @Test("The SQL does not change with the text, only the arguments")
    func sqlIndependentOfText() throws {
        let texts = ["b", "bo", "Bogotá", "%_'\"", ""]
        let fragments = try texts.map { try CatalogueSearch.countries(matching: $0.isEmpty ? "x" : $0).selectSQL() }
        #expect(Set(fragments.map(\.sql)).count == 1)
        #expect(Set(fragments.map(\.arguments)).count == texts.count)
    }

    /// What SQLite should return, computed in Swift (byte-wise, as SQLite compares text).
    static func oracle(_ value: String?, _ op: ComparisonOperator, _ operand: String, _ options: ComparisonOptions) -> Bool {
        guard let value else { return op == .notEqual }  // NULL IS NOT 'x' is true; every other test is NULL
        let (v, o) = (Folding.fold(value, options: options), Folding.fold(operand, options: options))
        switch op {
        case .equal: return Bytes.equal(v, o)
        case .notEqual: return !Bytes.equal(v, o)
        case .lessThan: return Bytes.less(v, o)
        case .lessThanOrEqual: return !Bytes.less(o, v)
        case .greaterThan: return Bytes.less(o, v)
        case .greaterThanOrEqual: return !Bytes.less(v, o)
        case .beginsWith: return Bytes.hasPrefix(v, o)
        case .endsWith: return Bytes.hasSuffix(v, o)
        case .contains: return Bytes.contains(v, o)
        // The operands have no wildcard or regular-expression syntax: both match the whole value.
        case .like, .matches: return Bytes.equal(v, o)
        }
    }

    static func value(of country: Country, _ column: String) -> String? {
        switch column {
        case "name": country.name
        case "capital": country.capital
        case "official_name": country.officialName
        case "continent": country.continent
        default: nil
        }
    }

    @Test("Every text operator with [], [c], [d] and [cd] returns the rows a Swift filter finds",
          arguments: ComparisonOperator.allCases, optionSets)
    func operatorMatchesOracle(op: ComparisonOperator, options: ComparisonOptions) throws {
        // name and capital have folded keys; official_name and continent fold in SQL.
        for column in ["name", "capital", "official_name", "continent"] {
            for operand in ["Bo", "CÔTE", "land", "São", "é", "Republic", "EUROPE", "Mariehamn", "Ålan"] {
                let predicate: FetchPredicate = .comparison(column: column, operator: op, value: .text(operand), options: options)
                let found = Set(try catalogue.read { try $0.fetchIDs(FetchRequest<Country>(predicate: predicate)) })
                let expected = Set(countries.filter { Self.oracle(Self.value(of: $0, column), op, operand, options) }.compactMap(\.id))
                #expect(found == expected, "\(column) \(op.rawValue)\(options.formatModifier) \(operand)")
            }
        }
    }

    @Test("Known rows for [c], [d] and [cd] on keyed and unkeyed columns")
    func knownRows() throws {
        func codes(_ predicate: FetchPredicate) throws -> Set<String> {
            Set(try catalogue.records(FetchRequest<Country>(predicate: predicate)).map(\.code))
        }
        #expect(try codes(.beginsWith("name", "CÔTE", options: .caseInsensitive)) == ["CI"])
        #expect(try codes(.beginsWith("name", "COTE", options: .caseInsensitive)).isEmpty)
        #expect(try codes(.beginsWith("name", "Cote", options: .diacriticInsensitive)) == ["CI"])
        #expect(try codes(.beginsWith("name", "cote", options: .diacriticInsensitive)).isEmpty)
        #expect(try codes(.equals("capital", "BOGOTA", options: Self.cd)) == ["CO"])
        #expect(try codes(.equals("capital", "BOGOTÁ", options: .caseInsensitive)) == ["CO"])
        #expect(try codes(.equals("capital", "bogota", options: .caseInsensitive)).isEmpty)
        #expect(try codes(.equals("continent", "antarctica", options: Self.cd)).contains("AQ"))
        #expect(try codes(.contains("official_name", "RÉPUBLIC", options: Self.cd)).contains("CI"))
        #expect(try codes(.contains("official_name", "REPUBLIC")).isEmpty)
        #expect(try codes(.beginsWith("official_name", "republic of cote", options: Self.cd)) == ["CI"])
        #expect(try codes(.endsWith("name", "LAND", options: Self.cd)).isSuperset(of: ["FI", "CH", "NZ", "TH"]))
        #expect(try codes(.endsWith("name", "LAND")).isEmpty)
        #expect(try codes(.equals("capital", nil)) == ["AQ", "BV", "HM", "UM"])
        #expect(try codes(.notEquals("capital", nil)).count == countries.count - 4)
        #expect(try codes(.in("code", ["CI", "TR", "XX"])) == ["CI", "TR"])
        #expect(try codes(.in("name", ["TÜRKIYE", "cote d'ivoire"], options: Self.cd)) == ["CI", "TR"])
        #expect(try codes(.in("code", [])).isEmpty)
        #expect(try codes(.true).count == countries.count)
        #expect(try codes(.false).isEmpty)
        #expect(try codes(.and([.equals("continent", "Europe"), .beginsWith("name", "s", options: Self.cd), .not(.equals("code", "ES"))]))
            == Set(countries.filter { $0.continent == "Europe" && Folding.fold($0.name).hasPrefix("s") && $0.code != "ES" }.map(\.code)))
        #expect(try codes(.or([.equals("code", "CI"), .equals("capital", "Ankara")])) == ["CI", "TR"])
    }

    @Test("Numeric comparisons, between and in")
    func numericComparisons() throws {
        func ids(_ predicate: FetchPredicate) throws -> Set<Int64> {
            Set(try catalogue.read { try $0.fetchIDs(FetchRequest<Country>(predicate: predicate)) })
        }
        func expected(_ filter: (Int64) -> Bool) -> Set<Int64> {
            Set(countries.filter { $0.population.map(filter) ?? false }.compactMap(\.id))
        }
        let million: Int64 = 1_000_000
        #expect(try ids(.lessThan("population", million)) == expected { $0 < million })
        #expect(try ids(.lessThanOrEqual("population", 0)) == expected { $0 <= 0 })
        #expect(try ids(.greaterThan("population", 100 * million)) == expected { $0 > 100 * million })
        #expect(try ids(.greaterThanOrEqual("population", 100 * million)) == expected { $0 >= 100 * million })
        #expect(try ids(.between("population", million, 2 * million)) == expected { $0 >= million && $0 <= 2 * million })
        #expect(try ids(.equals("population", 0)) == expected { $0 == 0 })
        #expect(try ids(.greaterThan("population", 100 * million)).isEmpty == false)
    }

    @Test("%, _, \\, ' and \" in text match literally", arguments: [
        (FetchPredicate.beginsWith("name", "100%"), ["100% cotton"]),
        (.contains("name", "%"), ["100% cotton"]),
        (.contains("name", "_"), ["snake_case"]),
        (.beginsWith("name", "snake_", options: cd), ["snake_case"]),
        (.endsWith("name", "_CASE", options: cd), ["snake_case"]),
        (.contains("name", "\\"), ["back\\slash"]),
        (.beginsWith("name", "back\\", options: .caseInsensitive), ["back\\slash"]),
        (.contains("name", "'"), ["it's"]),
        (.equals("name", "IT'S", options: cd), ["it's"]),
        (.contains("name", "\""), ["say \"hi\""]),
        (.endsWith("name", "\"hi\"", options: .diacriticInsensitive), ["say \"hi\""]),
        (.contains("name", "%_"), []),
    ])
    func wildcardsAreLiteral(predicate: FetchPredicate, expected: [String]) throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            for name in ["100% cotton", "100 cotton", "1000 cotton", "snake_case", "snakeXcase", "back\\slash",
                         "backslash", "it's", "its", "say \"hi\"", "say hi"] {
                try db.insert(Product(name: name, type: "test"))
            }
        }
        let names = try catalogue.records(FetchRequest<Product>(predicate: predicate)).map(\.name)
        #expect(names.sorted() == expected.sorted())
    }

    @Test("Prefix ranges at the edges of Unicode: empty prefix, U+10FFFF, U+D7FF")
    func prefixEdges() throws {
        let catalogue = try emptyCatalogue()
        let names = ["\u{10FFFF}\u{10FFFF}z", "\u{10FFFF}a", "a\u{10FFFF}\u{10FFFF}", "b", "\u{D7FF}x", "\u{E000}y"]
        try catalogue.write { db in
            for name in names { try db.insert(Product(name: name, type: "edge")) }
        }
        func found(_ prefix: String) throws -> Set<String> {
            Set(try catalogue.records(FetchRequest<Product>(predicate: .beginsWith("name", prefix))).map(\.name))
        }
        #expect(try found("") == Set(names))
        #expect(try found("\u{10FFFF}") == ["\u{10FFFF}\u{10FFFF}z", "\u{10FFFF}a"])
        #expect(try found("\u{10FFFF}\u{10FFFF}") == ["\u{10FFFF}\u{10FFFF}z"])
        #expect(try found("a\u{10FFFF}") == ["a\u{10FFFF}\u{10FFFF}"])
        #expect(try found("\u{D7FF}") == ["\u{D7FF}x"])
        #expect(try found("\u{E000}") == ["\u{E000}y"])
        #expect(try found("b") == ["b"])
        // The same through the folded key.
        let keyed = try catalogue.records(FetchRequest<Product>(predicate: .beginsWith("name", "", options: Self.cd)))
        #expect(keyed.count == names.count)
    }

    @Test("Limit and offset are bound; fetchCount ignores them")
    func limitAndOffset() throws {
        var request = FetchRequest<Country>(predicate: .contains("name", "an", options: Self.cd), sortDescriptors: FetchSortDescriptor.byName)
        let all = try catalogue.records(request)
        #expect(all.count > 20)
        request.fetchLimit = 5
        request.fetchOffset = 10
        let sql = try request.selectSQL()
        #expect(sql.sql.hasSuffix(" ORDER BY country.name_key, country.name, country.id LIMIT ? OFFSET ?"))
        #expect(sql.arguments.suffix(2) == [.integer(5), .integer(10)])
        #expect(try catalogue.records(request).map(\.id) == all[10..<15].map(\.id))
        #expect(try catalogue.read { try $0.fetchCount(request) } == all.count)
        let count = try request.countSQL()
        #expect(count.sql == "SELECT count(*) FROM country WHERE instr(country.name_key, ?) > 0")
        #expect(count.arguments == [.text("an")])
        request.fetchOffset = all.count
        #expect(try catalogue.records(request).isEmpty)
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(try catalogue.records(request).isEmpty)
    }

    @Test("fetchFirst and fetchIDs follow the request's order")
    func firstAndIDs() throws {
        let request = FetchRequest<Country>(predicate: .beginsWith("name", "bo", options: Self.cd), sortDescriptors: FetchSortDescriptor.byName)
        let records = try catalogue.records(request)
        #expect(records.map(\.name) == ["Bolivia", "Bonaire, Sint Eustatius and Saba", "Bosnia and Herzegovina", "Botswana", "Bouvet Island"])
        #expect(try catalogue.read { try $0.fetchFirst(request) }?.name == "Bolivia")
        #expect(try catalogue.read { try $0.fetchIDs(request) } == records.compactMap(\.id))
        #expect(try catalogue.read { try $0.fetchFirst(FetchRequest<Country>(predicate: .false)) } == nil)
    }

    @Test("Unknown columns are refused before any SQL runs")
    func unknownColumn() throws {
        let known = Country.schema.selection
        #expect(throws: FetchRequestError.unknownColumn("colour", table: "country", known: known)) {
            try catalogue.records(FetchRequest<Country>(predicate: .equals("colour", "red")))
        }
        #expect(throws: FetchRequestError.unknownColumn("colour", table: "country", known: known)) {
            try catalogue.read { try $0.fetchCount(FetchRequest<Country>(predicate: .beginsWith("colour", "r", options: Self.cd))) }
        }
        #expect(throws: FetchRequestError.unknownColumn("colour", table: "country", known: known)) {
            try FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("colour")]).selectSQL()
        }
    }

    @Test("Requests are values: equal when built alike")
    func requestsAreValues() {
        let a = CatalogueSearch.countries(matching: "bo")
        var b = CatalogueSearch.countries(matching: "bo")
        #expect(a == b)
        b.fetchLimit = 3
        #expect(a != b)
        #expect(a != CatalogueSearch.countries(matching: "bol"))
    }
}
