// The code of the DocC article "Storing your own records", verbatim (DocumentationExamplesTests
// checks that every block of the article appears here), compiled as an app would compile it.
import CatalogueKit

struct City: Record, Hashable {
    static let schema = RecordSchema(
        table: "city", columns: ["name", "country_code", "population"], naturalKey: ["name", "country_code"],
        foldedColumns: ["name": "name_key"], fullTextTable: "city_fts", fullTextColumns: ["name"])

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

    // Columns come as `id`, then `schema.columns`, in order; `decode(at:)` infers the type.
    init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        countryCode = try row.decode(at: 2)
        population = try row.decode(at: 3)
    }

    // The values of `schema.columns`, in order. Folded keys are computed by the library.
    var databaseValues: [DatabaseValue] {
        [.text(name), .text(countryCode), population.databaseValue]
    }
}

extension City {
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
            name, content = "city", content_rowid = "id", tokenize = 'unicode61 remove_diacritics 2'
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
}

extension City {
    static let derivedMigration = Migration(identifier: "0001_city", sql: """
        CREATE TABLE city (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            country_code TEXT NOT NULL,
            population INTEGER
        );
        """ + SQLiteSearchSupport.sql(for: City.schema))
}

func useCities(path: String) throws {
    let catalogue = try Catalogue(path: path, appMigrations: [City.derivedMigration])
    try catalogue.write { db in
        try db.upsert(City(name: "Bogotá", countryCode: "CO", population: 7_412_566))
        try db.upsert(City(name: "San José", countryCode: "CR", population: 342_188))
        try db.upsert(City(name: "San José", countryCode: "US", population: 971_233))
    }

    // BEGINSWITH[cd] on the folded key: "bog" finds Bogotá.
    let prefix = FetchRequest<City>(
        predicate: .beginsWith("name", "bog", options: .caseAndDiacriticInsensitive), sortDescriptors: .byName)
    print(try catalogue.fetch(prefix).map(\.name))   // ["Bogotá"]

    // Words, ranked: every word typed starts a word of the name.
    let pattern = FullTextPattern(matchingAllPrefixesIn: "san jo")!
    let words = FetchRequest<City>(
        predicate: .fullText(pattern) && .greaterThan("population", 500_000),
        sortDescriptors: [.relevance] + .byName)
    print(try catalogue.fetch(words).map(\.countryCode))   // ["US"]
}
