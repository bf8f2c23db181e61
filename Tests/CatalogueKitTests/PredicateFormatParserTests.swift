import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

@Suite("FetchPredicate format strings")
struct PredicateFormatParserTests {
    let cd = ComparisonOptions.caseAndDiacriticInsensitive

    @Test("%K BEGINSWITH[cd] %@ substitutes key and value")
    func beginsWithSubstitution() throws {
        let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@", "name", "bog")
        #expect(predicate == .comparison(column: "name", operator: .beginsWith, value: .text("bog"), options: cd))
    }

    @Test("Every comparison operator and its spellings", arguments: [
        ("==", ComparisonOperator.equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
        ("<", .lessThan), ("<=", .lessThanOrEqual), ("=<", .lessThanOrEqual), (">", .greaterThan),
        (">=", .greaterThanOrEqual), ("=>", .greaterThanOrEqual), ("BEGINSWITH", .beginsWith),
        ("beginswith", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("contains", .contains),
    ])
    func operators(symbol: String, expected: ComparisonOperator) throws {
        let predicate = try FetchPredicate(format: "year \(symbol) 2007")
        #expect(predicate == .comparison(column: "year", operator: expected, value: .integer(2007), options: []))
    }

    @Test("Options [c], [d], [cd], [dc]")
    func options() throws {
        #expect(try FetchPredicate(format: "name CONTAINS[c] 'a'")
            == .comparison(column: "name", operator: .contains, value: .text("a"), options: .caseInsensitive))
        #expect(try FetchPredicate(format: "name ==[d] 'a'")
            == .comparison(column: "name", operator: .equal, value: .text("a"), options: .diacriticInsensitive))
        #expect(try FetchPredicate(format: "name ENDSWITH[dc] 'a'")
            == .comparison(column: "name", operator: .endsWith, value: .text("a"), options: cd))
    }

    @Test("AND binds tighter than OR; NOT and parentheses")
    func precedence() throws {
        let predicate = try FetchPredicate(format: "a == 1 OR b == 2 AND NOT (c == 3 || d == 4)")
        let expected: FetchPredicate = .or([
            .comparison(column: "a", operator: .equal, value: .integer(1), options: []),
            .and([
                .comparison(column: "b", operator: .equal, value: .integer(2), options: []),
                .not(.or([
                    .comparison(column: "c", operator: .equal, value: .integer(3), options: []),
                    .comparison(column: "d", operator: .equal, value: .integer(4), options: []),
                ])),
            ]),
        ])
        #expect(predicate == expected)
        #expect(try FetchPredicate(format: "!(a == 1) && b != nil")
            == .and([.not(.comparison(column: "a", operator: .equal, value: .integer(1), options: [])),
                     .comparison(column: "b", operator: .notEqual, value: .null, options: [])]))
    }

    @Test("Literals: quoted strings with escapes, numbers, booleans, nil")
    func literals() throws {
        #expect(try FetchPredicate(format: #"name == "it\"s""#)
            == .comparison(column: "name", operator: .equal, value: .text("it\"s"), options: []))
        #expect(try FetchPredicate(format: "name == 'Côte d\\'Ivoire'")
            == .comparison(column: "name", operator: .equal, value: .text("Côte d'Ivoire"), options: []))
        #expect(try FetchPredicate(format: "price == 599.5")
            == .comparison(column: "price", operator: .equal, value: .real(599.5), options: []))
        #expect(try FetchPredicate(format: "price > -1")
            == .comparison(column: "price", operator: .greaterThan, value: .integer(-1), options: []))
        #expect(try FetchPredicate(format: "flag == YES AND other == FALSE AND capital == NIL")
            == .and([.comparison(column: "flag", operator: .equal, value: .integer(1), options: []),
                     .comparison(column: "other", operator: .equal, value: .integer(0), options: []),
                     .comparison(column: "capital", operator: .equal, value: .null, options: [])]))
        #expect(try FetchPredicate(format: "TRUEPREDICATE") == .true)
        #expect(try FetchPredicate(format: "falsepredicate") == .false)
    }

    @Test("IN and BETWEEN with literal lists and array arguments")
    func lists() throws {
        #expect(try FetchPredicate(format: "code IN {'FR', 'DE'}") == .in(column: "code", values: [.text("FR"), .text("DE")], options: []))
        #expect(try FetchPredicate(format: "code IN[c] %@", ["fr", "de"]) == .in(column: "code", values: [.text("fr"), .text("de")], options: .caseInsensitive))
        #expect(try FetchPredicate(format: "year BETWEEN {2000, 2010}") == .between(column: "year", lower: .integer(2000), upper: .integer(2010)))
        #expect(try FetchPredicate(format: "year BETWEEN %@", [2000, 2010]) == .between(column: "year", lower: .integer(2000), upper: .integer(2010)))
    }

    @Test("Argument types: Int, Double, Bool, String, optional nil")
    func argumentTypes() throws {
        let none: String? = nil
        let predicate = try FetchPredicate(format: "a == %d AND b == %f AND c == %@ AND d == %@ AND e == %@", 3, 2.5, true, "x", none)
        #expect(predicate == .and([
            .comparison(column: "a", operator: .equal, value: .integer(3), options: []),
            .comparison(column: "b", operator: .equal, value: .real(2.5), options: []),
            .comparison(column: "c", operator: .equal, value: .integer(1), options: []),
            .comparison(column: "d", operator: .equal, value: .text("x"), options: []),
            .comparison(column: "e", operator: .equal, value: .null, options: []),
        ]))
    }

    @Test("Bad formats report position and expectation", arguments: [
        ("name BEGINSWITH", 15, "a value"),
        ("name FOO 'x'", 5, "an operator"),
        ("(name == 'x'", 12, "')'"),
        ("name == 'x' name", 12, "AND, OR or the end"),
        ("name ==[x] 'a'", 8, "c or d"),
        ("name == 'open", 8, "a closing '"),
        ("== 'a'", 0, "a key"),
        ("year BETWEEN {1}", 5, "BETWEEN with two values"),
        ("name == %@", 8, "an argument for this placeholder"),
        ("code IN 'FR'", 8, "'{' or an array placeholder"),
    ])
    func badFormat(format: String, position: Int, expected: String) {
        do {
            _ = try FetchPredicate(format: format)
            Issue.record("\(format) parsed")
        } catch let error as PredicateFormatError {
            #expect(error.position == position, "\(error)")
            #expect(error.expected.hasPrefix(expected), "\(error)")
            #expect(error.format == format)
            #expect(error.description.contains("at position \(position)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Parentheses and NOTs nest at most FetchPredicate.maximumNestingDepth deep; deeper is refused where it goes too deep")
    func nestingLimit() throws {
        let limit = FetchPredicate.maximumNestingDepth
        let nots = try FetchPredicate(format: String(repeating: "!", count: limit) + "name ENDSWITH %@", "ia")
        #expect(nots.nestingDepth == limit + 1)
        let parentheses = try FetchPredicate(format: String(repeating: "(", count: limit) + "name == 'x'" + String(repeating: ")", count: limit))
        #expect(parentheses == .comparison(column: "name", operator: .equal, value: .text("x"), options: []))
        // "NOT (" is two levels: the NOT and the parenthesis.
        let words = try FetchPredicate(format: String(repeating: "NOT (", count: limit / 2) + "name == 'x'" + String(repeating: ")", count: limit / 2))
        #expect(words.nestingDepth == limit / 2 + 1)

        // The fuzzer's input: 117 `!` before a comparison (SQLite's parser overflowed on its SQL).
        let deepFormats = [
            (String(repeating: "!", count: 117) + "name ENDSWITH %@", limit),
            (String(repeating: "(", count: 5_000) + "name == 'x'" + String(repeating: ")", count: 5_000), limit),
            ("name == 'a' OR " + String(repeating: "NOT (", count: limit / 2 + 1) + "name == 'x'", 15 + 5 * (limit / 2)),
        ]
        for (format, position) in deepFormats {
            #expect {
                _ = try FetchPredicate(format: format, "ia")
            } throws: { error in
                guard let error = error as? PredicateFormatError else { return false }
                return error.position == position && error.expected == "at most \(limit) nested parentheses and NOTs"
            }
        }
    }

    @Test("Wrong arguments: %K needs a String, extra arguments are an error")
    func wrongArguments() {
        #expect(throws: PredicateFormatError.self) { try FetchPredicate(format: "%K == 1", 42) }
        #expect(throws: PredicateFormatError.self) { try FetchPredicate(format: "name == %@", "a", "b") }
        #expect(throws: PredicateFormatError.self) { try FetchPredicate(format: "code IN %@", "FR") }
    }

    @Test("A parsed predicate runs against the catalogue like a typed one")
    func runsAgainstCatalogue() throws {
        let catalogue = try Catalogue(path: ":memory:")
        let parsed = try FetchPredicate(format: "%K BEGINSWITH[cd] %@ AND population > %@", "capital", "BOG", 1_000_000)
        let countries = try catalogue.read { db in
            try db.fetch(FetchRequest<Country>(predicate: parsed, sortDescriptors: FetchSortDescriptor.byName))
        }
        #expect(countries.map(\.code) == ["CO"])
        let sqlInjection = try FetchPredicate(format: "name == %@", "x'); DROP TABLE country; --")
        #expect(try catalogue.read { try $0.fetch(FetchRequest<Country>(predicate: sqlInjection)) }.isEmpty)
        #expect(try catalogue.read { try $0.fetchCount(FetchRequest<Country>()) } >= 245)
    }

    @Test("A %K naming no column is refused when compiled, never spliced into SQL")
    func unknownKey() throws {
        let catalogue = try Catalogue(path: ":memory:")
        let predicate = try FetchPredicate(format: "%K == 1", "1; DROP TABLE country")
        #expect(throws: FetchRequestError.self) {
            try catalogue.read { try $0.fetch(FetchRequest<Country>(predicate: predicate)) }
        }
    }
}
