import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// The rest of Core Data's predicate language: LIKE, MATCHES, substitution variables and
/// ANY aliases, from the format string to SQL to rows.
@Suite("Predicate language: LIKE, MATCHES, $VARIABLES, ANY aliases")
struct PredicateLanguageTests {
    let cd = ComparisonOptions.caseAndDiacriticInsensitive

    func names(_ catalogue: Catalogue, _ predicate: FetchPredicate) throws -> [String] {
        try catalogue.fetch(FetchRequest<Country>(predicate: predicate, sortDescriptors: .byName)).map(\.name)
    }

    func sql(_ predicate: FetchPredicate) throws -> SQLFragment {
        try FetchRequest<Country>(predicate: predicate, sortDescriptors: []).countSQL()
    }

    // MARK: LIKE

    @Test("LIKE patterns parse into literals and wildcards; \\* and \\? are literal")
    func likePatterns() {
        #expect(LikePattern("Bo*a").parts == [.literal("Bo"), .anyRun, .literal("a")])
        #expect(LikePattern("?x").parts == [.anyCharacter, .literal("x")])
        #expect(LikePattern("a\\*b\\?").parts == [.literal("a*b?")])
        #expect(LikePattern("50%_[x]").globPattern == "50%_[[]x]")
        #expect(LikePattern("50%_\\\\").sqlLikePattern == "50\\%\\_\\\\")
        #expect(LikePattern("*land").literalPrefix == "")
        // Scalar by scalar: a wildcard followed by a combining mark is one Character.
        #expect(LikePattern("a*\u{301}").parts == [.literal("a"), .anyRun, .literal("\u{301}")])
        #expect(Array(LikePattern("a\\*\u{301}[\u{301}").globPattern.unicodeScalars) == Array("a[*]\u{301}[[]\u{301}".unicodeScalars))
        #expect(Array(LikePattern("%\u{200D}_\u{301}").sqlLikePattern.unicodeScalars) == Array("\\%\u{200D}\\_\u{301}".unicodeScalars))
    }

    @Test("LIKE[cd] reads the folded key's range for a literal prefix, then GLOB")
    func likeSQL() throws {
        let fragment = try sql(try FetchPredicate(format: "name LIKE[cd] 'BO*A'"))
        #expect(fragment.sql == "SELECT count(*) FROM country WHERE country.name_key >= ? AND country.name_key < ? AND country.name_key GLOB ?")
        #expect(fragment.arguments == [.text("bo"), .text("bp"), .text("bo*a")])
        let suffix = try sql(.like("name", "*land", options: cd))
        #expect(suffix.sql == "SELECT count(*) FROM country WHERE country.name_key GLOB ?")
    }

    @Test("LIKE finds what NSPredicate's LIKE finds", arguments: [
        ("name LIKE[cd] 'bo*a'", ["Bolivia", "Bonaire, Sint Eustatius and Saba", "Bosnia and Herzegovina", "Botswana"]),
        ("name LIKE[cd] '*land'", nil),
        ("name LIKE 'Pe?u'", ["Peru"]),
        ("name LIKE 'peru'", []),
        ("name LIKE[c] 'peru'", ["Peru"]),
        ("capital LIKE[cd] 'bogota'", ["Colombia"]),
        ("name LIKE[cd] 'c?te d*'", ["Côte d'Ivoire"]),
    ] as [(String, [String]?)])
    func likeRows(format: String, expected: [String]?) throws {
        let catalogue = try seededCatalogue()
        let found = try names(catalogue, try FetchPredicate(format: format))
        if let expected {
            #expect(found == expected)
        } else {
            #expect(found.contains("Finland") && found.contains("Iceland") && found.allSatisfy { Folding.fold($0).hasSuffix("land") })
        }
    }

    @Test("LIKE wildcards in the data are not wildcards in the text searched")
    func likeLiteralData() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            for name in ["100% cotton", "100 cotton", "a*b", "axb", "[x]", "x"] { try db.insert(Product(name: name, type: "t")) }
        }
        func found(_ format: String) throws -> [String] {
            try catalogue.fetch(FetchRequest<Product>(predicate: try FetchPredicate(format: format), sortDescriptors: .byName)).map(\.name)
        }
        #expect(try found("name LIKE '100% *'") == ["100% cotton"])
        #expect(try found("name LIKE 'a\\\\*b'") == ["a*b"])
        #expect(try found("name LIKE[cd] '[x]'") == ["[x]"])
    }

    // MARK: MATCHES

    @Test("MATCHES is a whole-value regular expression, [c] and [d] honoured")
    func matchesRows() throws {
        let catalogue = try seededCatalogue()
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES 'Ch(ad|ile|ina)'")) == ["Chad", "Chile", "China"])
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES 'ch(ad|ile)'")) == [])
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES[c] 'ch(ad|ile)'")) == ["Chad", "Chile"])
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES 'Cote.*'")) == [])
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES[d] 'Cote.*'")) == ["Côte d'Ivoire"])
        #expect(try names(catalogue, try FetchPredicate(format: "name MATCHES[cd] 'COTE D.IVOIRE'")) == ["Côte d'Ivoire"])
        // Case folding leaves escapes alone: \D is still "not a digit".
        #expect(try names(catalogue, try FetchPredicate(format: "code MATCHES[c] '\\\\D\\\\D' AND name BEGINSWITH 'Peru'")) == ["Peru"])
    }

    @Test("a bad regular expression is one clear error, before the database")
    func badRegularExpression() throws {
        let catalogue = try seededCatalogue()
        let error = try #require(throws: FetchRequestError.self) {
            try catalogue.fetch(FetchRequest<Country>(predicate: .matches("name", "(unclosed")))
        }
        #expect(error == .invalidRegularExpression("(unclosed", reason: "it does not compile"))
        #expect(error.description.contains("not a valid regular expression"))
    }

    @Test("a regular expression that backtracks too long on one value stops the statement with one line")
    func backtrackingRegularExpression() throws {
        let catalogue = try emptyCatalogue()
        let almost = String(repeating: "a", count: 26)
        try catalogue.write { db in
            try db.insert(Product(name: almost, type: "t"))
            try db.insert(Product(name: "aaa!", type: "t"))
        }
        // (a+)+! tries every split of the 26 letters (seconds in ICU) before it gives up.
        let nested = FetchRequest<Product>(predicate: .matches("name", "(a+)+!"))
        let error = try #require(throws: DatabaseError.self) { try catalogue.fetch(nested) }
        #expect(error.message.hasPrefix("MATCHES stopped: the regular expression (a+)+! backtracks too long on one value"))
        // The same rows by a pattern without the nesting.
        #expect(try catalogue.fetch(FetchRequest<Product>(predicate: .matches("name", "a+!"))).map(\.name) == ["aaa!"])
    }

    // MARK: Substitution variables

    @Test("$VARIABLES parse into substitution sites and are filled in later")
    func substitution() throws {
        let template = try FetchPredicate(format: "capital BEGINSWITH[cd] $TEXT OR code IN $CODES")
        #expect(template == .or([
            .substitution(.comparison(column: "capital", operator: .beginsWith, options: cd), variable: "TEXT"),
            .substitution(.inList(column: "code", options: []), variable: "CODES"),
        ]))
        #expect(template.substitutionVariables == ["TEXT", "CODES"])
        let filled = try template.withSubstitutionVariables(["TEXT": "bog", "CODES": ["PE"]])
        #expect(filled == .or([.beginsWith("capital", "bog", options: cd), .in("code", ["PE"])]))
        let catalogue = try seededCatalogue()
        #expect(try names(catalogue, filled) == ["Colombia", "Peru"])
    }

    @Test("a template request compiles to the same SQL for every keystroke")
    func templateRequest() throws {
        let template = FetchRequest<Country>(
            predicate: try FetchPredicate(format: "name BEGINSWITH[cd] $TEXT"), sortDescriptors: .byName)
        let first = try template.withSubstitutionVariables(["TEXT": "b"]).selectSQL()
        let second = try template.withSubstitutionVariables(["TEXT": "bo"]).selectSQL()
        #expect(first.sql == second.sql)
        #expect(first.arguments != second.arguments)
    }

    @Test("a variable left unfilled, or filled with the wrong kind, is an error naming it")
    func substitutionErrors() throws {
        let template = try FetchPredicate(format: "name == $NAME AND code IN $CODES")
        #expect(throws: FetchRequestError.unboundVariable("NAME")) {
            try FetchRequest<Country>(predicate: template).selectSQL()
        }
        let error = try #require(throws: SubstitutionError.self) {
            try template.withSubstitutionVariables(["CODES": "FR"])
        }
        #expect(error.variable == "CODES")
    }

    // MARK: ANY aliases

    @Test("ANY aliases compares each alias (SOME too); other keys are refused with a position")
    func anyAliases() throws {
        let predicate = try FetchPredicate(format: "ANY aliases BEGINSWITH[cd] %@", "ivory")
        #expect(predicate == .anyAlias(operator: .beginsWith, value: "ivory", options: cd))
        #expect(try FetchPredicate(format: "SOME aliases == 'UK'") == .anyAlias(operator: .equal, value: "UK", options: []))
        #expect(try FetchPredicate(format: "ANY aliases LIKE[cd] $A")
            == .substitution(.anyAlias(operator: .like, options: cd), variable: "A"))
        let catalogue = try seededCatalogue()
        #expect(try names(catalogue, predicate) == ["Côte d'Ivoire"])
        #expect(try names(catalogue, try FetchPredicate(format: "ANY aliases LIKE[cd] 'türk*'")) == ["Türkiye"])
        let error = try #require(throws: PredicateFormatError.self) { try FetchPredicate(format: "ANY name == 'x'") }
        #expect(error.position == 4)
        #expect(error.expected.contains("aliases"))
    }

    @Test("parse errors name the position for the new syntax", arguments: [
        ("name LIKE", 9, "a value"), ("name == $", 9, "a variable name"), ("ANY aliases", 11, "an operator"),
    ])
    func parseErrors(format: String, position: Int, expected: String) {
        let error = #expect(throws: PredicateFormatError.self) { try FetchPredicate(format: format) }
        #expect(error?.position == position)
        #expect(error?.expected.contains(expected) == true)
    }
}
