import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// Search as you type: one prepared statement, re-bound for every keystroke.
@Suite("Cached fetches")
struct CachedFetchTests {
    /// Twenty keystrokes, each a different text.
    static let keystrokes: [String] = {
        var texts: [String] = []
        for word in ["bolivia", "bosnia", "botswana", "brazil"] {
            for length in 1...word.count where !texts.contains(String(word.prefix(length))) {
                texts.append(String(word.prefix(length)))
            }
        }
        return Array(texts.prefix(20))
    }()

    let catalogue: Catalogue
    let countries: [Country]

    init() throws {
        catalogue = try seededCatalogue()
        countries = try catalogue.allCountries()
    }

    func compiledCount() throws -> Int {
        try catalogue.database.inDatabase { $0.compiledStatementCount }
    }

    /// Countries whose name or an alias starts with `text`, folded, in display order.
    func expectedCountries(_ text: String) -> [String] {
        let key = Folding.fold(text)
        let matching = countries.filter { country in
            ([country.name] + country.aliases).contains { Bytes.hasPrefix(Folding.fold($0), key) }
        }
        return displayOrdered(matching, name: \.name).map(\.name)
    }

    @Test("Twenty keystrokes compile one statement, re-bound without re-preparing")
    func keystrokesReuseOneStatement() throws {
        #expect(Self.keystrokes.count == 20)
        #expect(Set(Self.keystrokes).count == 20)
        let first = CatalogueSearch.countries(matching: Self.keystrokes[0])
        _ = try catalogue.read { db in try db.fetch(first) }
        let compiled = try compiledCount()
        for text in Self.keystrokes {
            let request = CatalogueSearch.countries(matching: text)
            #expect(try request.selectSQL().sql == first.selectSQL().sql)
            let names = try catalogue.read { db in try db.fetch(request) }.map(\.name)
            #expect(names == expectedCountries(text), "\(text)")
            #expect(!names.isEmpty, "\(text)")
        }
        #expect(try compiledCount() == compiled, "a keystroke compiled a new statement")
        let (reprepared, runs, compiledAfterLookup) = try catalogue.database.inDatabase { db in
            let statement = try db.cachedStatement(try first.selectSQL().sql)
            return (statement.reprepareCount, statement.runCount, db.compiledStatementCount)
        }
        #expect(compiledAfterLookup == compiled, "the statement was no longer cached")
        #expect(runs >= Self.keystrokes.count)
        // Reads forbid writes per statement, not with `PRAGMA query_only` (a flag pragma, which
        // would expire every prepared statement): re-binding never re-prepares.
        #expect(reprepared == 0)
    }

    @Test("Outside a read transaction, re-binding never re-prepares")
    func keystrokesWithoutReadTransaction() throws {
        let first = CatalogueSearch.countries(matching: Self.keystrokes[0])
        let sql = try first.selectSQL().sql
        let (reprepared, compiledBefore, compiledAfter) = try catalogue.database.inDatabase { db in
            _ = try db.fetch(first)
            let before = db.compiledStatementCount
            for text in Self.keystrokes {
                let names = try db.fetch(CatalogueSearch.countries(matching: text)).map(\.name)
                #expect(names == expectedCountries(text), "\(text)")
            }
            return (try db.cachedStatement(sql).reprepareCount, before, db.compiledStatementCount)
        }
        #expect(compiledAfter == compiledBefore)
        #expect(reprepared == 0)
    }

    @Test("Results narrow as letters are typed and widen on backspace")
    func resultsFollowTheText() throws {
        let texts = ["b", "bo", "bol", "bo", "b", "br"]
        var results: [[String]] = []
        for text in texts {
            results.append(try catalogue.read { db in try db.fetch(CatalogueSearch.countries(matching: text)) }.map(\.name))
        }
        #expect(Set(results[1]).isSubset(of: Set(results[0])))
        #expect(results[2] == expectedCountries("bol"))
        #expect(results[2].contains("Bolivia") && !results[2].contains("Bosnia and Herzegovina"))
        #expect(results[3] == results[1])
        #expect(results[4] == results[0])
        #expect(results[5].contains("Brazil"))
        #expect(!results[5].contains("Bolivia"))
    }

    @Test("Product keystrokes in a type scope reuse their statement too")
    func productKeystrokes() throws {
        let texts = ["i", "ip", "ipa", "ipad", "ipad ", "ipad m", "ipad mi", "m", "ma", "mac"]
        _ = try catalogue.read { db in try db.fetch(CatalogueSearch.products(matching: "x", scope: .type("device"))) }
        let compiled = try compiledCount()
        for text in texts {
            let names = try catalogue.read { db in try db.fetch(CatalogueSearch.products(matching: text, scope: .type("device"))) }.map(\.name)
            let key = Folding.fold(text.trimmingCharacters(in: .whitespaces))
            #expect(names.allSatisfy { Bytes.hasPrefix(Folding.fold($0), key) }, "\(text): \(names)")
        }
        #expect(try compiledCount() == compiled)
        let iPads = try catalogue.read { db in try db.fetch(CatalogueSearch.products(matching: "ipad m", scope: .type("device"))) }
        #expect(iPads.map(\.name) == ["iPad mini"])
    }

    @Test("purgeCaches makes the next fetch compile again")
    func purgeCaches() throws {
        let request = CatalogueSearch.countries(matching: "bo")
        _ = try catalogue.read { db in try db.fetch(request) }
        let warm = try compiledCount()
        _ = try catalogue.read { db in try db.fetch(request) }
        #expect(try compiledCount() == warm)
        #expect(try catalogue.database.inDatabase { $0.cachedStatementCount } > 0)
        try catalogue.purgeCaches()
        #expect(try catalogue.database.inDatabase { $0.cachedStatementCount } == 0)
        let names = try catalogue.read { db in try db.fetch(request) }.map(\.name)
        #expect(try compiledCount() > warm)
        #expect(names == expectedCountries("bo"))
    }
}
