import CatalogueKit
import Foundation
import Testing

/// An app's own record type, defined only here: its table comes from an app migration, and
/// every CatalogueKit feature works on it.
struct City: Record, Hashable {
    static let schema = RecordSchema(
        table: "city", columns: ["name", "country_code", "population"], naturalKey: ["name", "country_code"],
        foldedColumns: ["name": "name_key"], fullTextTable: "city_fts")

    var id: Int64?
    var name: String
    var countryCode: String
    var population: Int64?

    init(id: Int64? = nil, name: String, countryCode: String, population: Int64? = nil) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.population = population
    }

    init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        countryCode = try row.decode(at: 2)
        population = try row.decode(at: 3)
    }

    var databaseValues: [DatabaseValue] {
        [.text(name), .text(countryCode), population.databaseValue]
    }

    static let migration = Migration(identifier: "0001_city", sql: """
        CREATE TABLE city (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            country_code TEXT NOT NULL,
            population INTEGER,
            UNIQUE (name, country_code)
        );
        CREATE INDEX city_by_name_key ON city (name_key, name);
        CREATE VIRTUAL TABLE city_fts USING fts5 (
            name, content = 'city', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER city_fts_after_insert AFTER INSERT ON city BEGIN
            INSERT INTO city_fts (rowid, name) VALUES (new.id, new.name);
        END;
        CREATE TRIGGER city_fts_after_delete AFTER DELETE ON city BEGIN
            INSERT INTO city_fts (city_fts, rowid, name) VALUES ('delete', old.id, old.name);
        END;
        CREATE TRIGGER city_fts_after_update AFTER UPDATE OF name ON city BEGIN
            INSERT INTO city_fts (city_fts, rowid, name) VALUES ('delete', old.id, old.name);
            INSERT INTO city_fts (rowid, name) VALUES (new.id, new.name);
        END;
        """)

    static let samples: [City] = [
        City(name: "São Paulo", countryCode: "BR", population: 12_325_000),
        City(name: "Sao Bernardo do Campo", countryCode: "BR", population: 844_000),
        City(name: "São Tomé", countryCode: "ST", population: 71_868),
        City(name: "Saint-Denis", countryCode: "RE", population: 153_810),
        City(name: "Bogotá", countryCode: "CO", population: 7_412_566),
        City(name: "Yaoundé", countryCode: "CM", population: 2_765_568),
        City(name: "Paris", countryCode: "FR", population: 2_165_423),
        City(name: "Paris", countryCode: "US", population: 24_171),
        City(name: "New Paris", countryCode: "US", population: 1_500),
    ]
}

@Suite("A host app's record type")
struct HostRecordTypeTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try Catalogue(path: ":memory:", appMigrations: [City.migration])
        try catalogue.write { db in
            for city in City.samples { try db.insert(city) }
        }
    }

    func names(_ request: FetchRequest<City>) throws -> [String] {
        try catalogue.records(request).map(\.name)
    }

    @Test("Insert and upsert by the natural key (name, country)")
    func upsert() throws {
        #expect(try catalogue.rowCount("city") == City.samples.count)
        let paris = City(name: "Paris", countryCode: "FR", population: 2_165_423)
        let (same, unchanged) = try catalogue.write { db in try db.upsert(paris) }
        #expect(unchanged == .unchanged)
        var grown = paris
        grown.population = 2_200_000
        let (updated, outcome) = try catalogue.write { db in try db.upsert(grown) }
        #expect(outcome == .updated)
        #expect(updated.id == same.id)
        let (texas, inserted) = try catalogue.write { db in try db.upsert(City(name: "Paris", countryCode: "CA")) }
        #expect(inserted == .inserted)
        #expect(texas.id != same.id)
        let key: String? = try catalogue.database.read { db in try db.scalar("SELECT name_key FROM city WHERE id = ?", [texas.id!]) }
        #expect(key == "paris")
        #expect(try catalogue.read { try $0.record(City.self, id: updated.id!) }?.population == 2_200_000)
    }

    @Test("BEGINSWITH[cd] is an index range scan on the app's key")
    func beginsWith() throws {
        let request = FetchRequest<City>(predicate: .beginsWith("name", "SAO", options: .caseAndDiacriticInsensitive),
                                         sortDescriptors: FetchSortDescriptor.byName)
        #expect(try request.selectSQL().sql.contains("WHERE city.name_key >= ? AND city.name_key < ? ORDER BY city.name_key, city.name, city.id"))
        #expect(try names(request) == ["Sao Bernardo do Campo", "São Paulo", "São Tomé"])
        let plan = try catalogue.database.read { db in try db.explainQueryPlan(request) }
        #expect(plan.contains { $0.hasPrefix("SEARCH city USING") && $0.contains("INDEX city_by_name_key") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN city") }, "\(plan)")
        #expect(try names(FetchRequest<City>(predicate: .beginsWith("name", "São", options: .caseInsensitive))).sorted() == ["São Paulo", "São Tomé"])
    }

    @Test("Other predicates: contains, equality, numbers, compound")
    func predicates() throws {
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        #expect(try names(FetchRequest<City>(predicate: .contains("name", "PARIS", options: cd), sortDescriptors: FetchSortDescriptor.byName))
            == ["New Paris", "Paris", "Paris"])
        #expect(try names(FetchRequest<City>(predicate: .equals("name", "yaounde", options: cd))) == ["Yaoundé"])
        #expect(try names(FetchRequest<City>(predicate: .equals("country_code", "US") && .greaterThan("population", 10_000))) == ["Paris"])
        #expect(try names(FetchRequest<City>(predicate: .endsWith("name", "DENIS", options: .caseInsensitive))) == ["Saint-Denis"])
        #expect(throws: FetchRequestError.noAliases(table: "city")) {
            try FetchRequest<City>(predicate: .anyAlias(operator: .equal, value: "x", options: [])).selectSQL()
        }
    }

    @Test("Full-text search with relevance order")
    func fullText() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "paris"))
        let request = FetchRequest<City>(predicate: .fullText(pattern), sortDescriptors: [.relevance] + FetchSortDescriptor.byName)
        #expect(try request.selectSQL().sql.contains(" UNION ALL SELECT * FROM (SELECT city.id, "))
        let scored = FetchRequest<City>(predicate: .fullText(pattern), sortDescriptors: [.relevance])
        #expect(try scored.selectSQL().sql.contains("FROM city_fts JOIN city ON city.id = city_fts.rowid WHERE city_fts MATCH ? ORDER BY city_fts.rank"))
        #expect(Set(try catalogue.records(scored).map(\.id)) == Set(try catalogue.records(request).map(\.id)))
        let found = try catalogue.records(request)
        #expect(found.count == 3)
        #expect(found.last?.name == "New Paris")
        let accented = try #require(FullTextPattern(matchingAllPrefixesIn: "sao pau"))
        #expect(try names(FetchRequest<City>(predicate: .fullText(accented), sortDescriptors: [.relevance])) == ["São Paulo"])
        #expect(try catalogue.read { try $0.fetchCount(request) } == 3)
    }

    @Test("fetchCount ignores the page")
    func count() throws {
        var request = FetchRequest<City>(predicate: .beginsWith("name", "s", options: .caseAndDiacriticInsensitive))
        request.fetchLimit = 1
        #expect(try catalogue.records(request).count == 1)
        #expect(try catalogue.read { try $0.fetchCount(request) } == 4)
        #expect(try catalogue.search(request, limit: 2).totalCount == 4)
    }

    @Test("Re-running a request with new text re-binds the cached statement")
    func cachedRebinding() throws {
        func request(_ text: String) -> FetchRequest<City> {
            FetchRequest(predicate: .beginsWith("name", text, options: .caseAndDiacriticInsensitive), sortDescriptors: FetchSortDescriptor.byName)
        }
        let (compiledBefore, compiledAfter, reprepared, results) = try catalogue.database.inDatabase { db in
            _ = try db.fetch(request("x"))
            let before = db.compiledStatementCount
            let results = try ["s", "sa", "sao", "sao p", "b", "bog", "p", "par"].map { try db.fetch(request($0)).map(\.name) }
            return (before, db.compiledStatementCount, try db.cachedStatement(try request("x").selectSQL().sql).reprepareCount, results)
        }
        #expect(compiledAfter == compiledBefore)
        #expect(reprepared == 0)
        #expect(results[3] == ["São Paulo"])
        #expect(results[5] == ["Bogotá"])
        #expect(results[7] == ["Paris", "Paris"])
    }

    @Test("Writes keep the app's FTS table in sync")
    func fullTextSync() throws {
        let paulo = try #require(try catalogue.records(FetchRequest<City>(predicate: .equals("name", "São Paulo"))).first)
        var renamed = paulo
        renamed.name = "Sampa"
        try catalogue.write { db in try db.update(renamed) }
        let sampa = try #require(FullTextPattern(matchingAllPrefixesIn: "sampa"))
        let paulista = try #require(FullTextPattern(matchingAllPrefixesIn: "paulo"))
        #expect(try names(FetchRequest<City>(predicate: .fullText(sampa))) == ["Sampa"])
        #expect(try names(FetchRequest<City>(predicate: .fullText(paulista))).isEmpty)
        #expect(try catalogue.write { db in try db.delete(City.self, id: paulo.id!) })
        #expect(try names(FetchRequest<City>(predicate: .fullText(sampa))).isEmpty)
        try catalogue.database.inDatabase { db in try db.execute("INSERT INTO city_fts(city_fts) VALUES('integrity-check')") }
    }
}

extension City: ImportableRecord {
    static let importColumns = [
        ImportColumn("name", required: true), ImportColumn("country_code", required: true), ImportColumn("population"),
    ]
    static let exportColumns = ["name", "country_code", "population"]

    init(importing row: ImportRow) throws(ImportFieldError) {
        self.init(name: try row.requiredText(at: 0), countryCode: try row.requiredText(at: 1), population: try row.integer(at: 2))
    }
}

/// An app's record type through the paths that write many rows at once: an import into a new
/// catalogue and into one, and a bulk upsert past ``Connection/bulkWriteThreshold`` (its
/// full-text entries written at the end).
@Suite("A host app's record type in bulk")
struct HostRecordTypeBulkTests {
    /// 1,500 cities over 500 keys (a name in one of three countries), each key seen several
    /// times with another population or the same: every upsert outcome.
    static func cities() -> [City] {
        (0..<1_500).map { index in
            let key = index % 500
            return City(name: "Vila \(["Nova", "Velha", "Real", "São Jorge"][key % 4]) \(key % 125)", countryCode: ["BR", "PT", "AO"][key % 3],
                population: index % 7 == 0 ? nil : Int64(index % 5) * 1_000)
        }
    }

    static func csv(_ cities: [City]) -> String {
        "name,country_code,population\n" + cities.map { "\($0.name),\($0.countryCode),\($0.population.map(String.init) ?? "")\n" }.joined()
    }

    /// What one upsert a city gives: the counts and every row (without ids), in id order.
    static func oneByOne(_ cities: [City], before: [City]) throws -> (UpsertCounts, [String]) {
        let catalogue = try Catalogue(path: ":memory:", seed: false, appMigrations: [City.migration])
        try catalogue.write { db in for city in before { _ = try db.upsert(city) } }
        let counts = try catalogue.write { db in
            var counts = UpsertCounts()
            for city in cities { counts.record(try db.upsert(city).outcome) }
            return counts
        }
        return (counts, try rows(catalogue))
    }

    static func rows(_ catalogue: Catalogue) throws -> [String] {
        try catalogue.records(FetchRequest<City>(sortDescriptors: [FetchSortDescriptor("id")]))
            .map { "\($0.name)|\($0.countryCode)|\($0.population.map(String.init) ?? "-")" }
    }

    /// The full-text index agrees with the table: FTS5's own check, and a words search finds
    /// the cities a CONTAINS search finds.
    static func checkFullText(_ catalogue: Catalogue) throws {
        try catalogue.database.inDatabase { db in try db.execute("INSERT INTO city_fts(city_fts) VALUES('integrity-check')") }
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "sao jorge"))
        let words = try catalogue.records(FetchRequest<City>(predicate: .fullText(pattern), sortDescriptors: [FetchSortDescriptor("id")]))
        let contains = try catalogue.records(FetchRequest<City>(
            predicate: .contains("name", "sao jorge", options: .caseAndDiacriticInsensitive), sortDescriptors: [FetchSortDescriptor("id")]))
        #expect(!words.isEmpty)
        #expect(words.map(\.id) == contains.map(\.id))
    }

    @Test("A bulk upsert gives the counts and rows of one upsert a city; its full-text entries agree")
    func bulkUpsert() throws {
        let cities = Self.cities()
        let before = Array(cities.prefix(100))
        let (expectedCounts, expectedRows) = try Self.oneByOne(cities, before: before)
        let catalogue = try Catalogue(path: ":memory:", seed: false, appMigrations: [City.migration])
        try catalogue.write { db in for city in before { _ = try db.upsert(city) } }
        #expect(try catalogue.write { db in try db.upsert(contentsOf: cities) } == expectedCounts)
        #expect(expectedCounts.inserted > 0 && expectedCounts.updated > 0 && expectedCounts.unchanged > 0, "\(expectedCounts)")
        #expect(try Self.rows(catalogue) == expectedRows)
        try Self.checkFullText(catalogue)
    }

    @Test("An import into a catalogue, and one that creates the catalogue, give the rows of one upsert a city")
    func imports() throws {
        let cities = Self.cities()
        let (expectedCounts, expectedRows) = try Self.oneByOne(cities, before: [])
        let expected = ImportCounts(added: expectedCounts.inserted, updated: expectedCounts.updated, unchanged: expectedCounts.unchanged)
        let input = { ImportInput(text: Self.csv(cities), name: "cities.csv") }

        let catalogue = try Catalogue(path: ":memory:", seed: false, appMigrations: [City.migration])
        #expect(try catalogue.importRecords(City.self, from: input(), options: ImportOptions(format: .csv)) == expected)
        #expect(try Self.rows(catalogue) == expectedRows)
        try Self.checkFullText(catalogue)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("cities.sqlite")
        let counts = try Catalogue.importRecords(
            City.self, from: input(), options: ImportOptions(format: .csv), intoNewCatalogueAt: path, seed: false,
            appMigrations: [City.migration])
        #expect(counts == expected)
        let created = try Catalogue(path: path, seed: false, appMigrations: [City.migration])
        #expect(try Self.rows(created) == expectedRows)
        try Self.checkFullText(created)
    }
}

/// Opening a catalogue file that has an app migration.
@Suite("App migrations")
struct AppMigrationTests {
    @Test("Reopening with the app migration works; without it the file is refused")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        do {
            let catalogue = try Catalogue(path: path, appMigrations: [City.migration])
            _ = try catalogue.write { db in try db.insert(City(name: "Bogotá", countryCode: "CO")) }
        }
        do {
            let reopened = try Catalogue(path: path, appMigrations: [City.migration])
            #expect(try reopened.records(FetchRequest<City>()).map(\.name) == ["Bogotá"])
            #expect(try reopened.rowCount("country") == (try SeedData.countries()).count)
            let applied: [String] = try reopened.database.read { db in
                try db.fetchAll("SELECT identifier FROM app_migrations") { try $0.decode(String.self, at: 0) }
            }
            #expect(applied == ["0001_city"])
        }
        #expect(throws: MigrationError.unknownMigration(identifier: "0001_city", path: path)) {
            _ = try Catalogue(path: path)
        }
        // The refused file is unchanged: it still opens with the migration, data intact.
        let again = try Catalogue(path: path, appMigrations: [City.migration])
        #expect(try again.records(FetchRequest<City>()).map(\.name) == ["Bogotá"])
    }

    @Test("An edited app migration is refused")
    func editedMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        _ = try Catalogue(path: path, appMigrations: [City.migration])
        let edited = Migration(identifier: "0001_city", sql: City.migration.sql + "\n-- edited")
        #expect(throws: MigrationError.modifiedMigration(identifier: "0001_city", path: path)) {
            _ = try Catalogue(path: path, appMigrations: [edited])
        }
    }
}
