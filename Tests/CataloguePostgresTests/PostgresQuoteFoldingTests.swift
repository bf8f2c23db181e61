#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import PostgresTestSupport
import Testing

/// A catalogue whose keys were stored when typographic apostrophes and quotation marks did not
/// fold (before migration 0007): the catalogue's tables and an app's are folded when the
/// migration is applied; a column that only ends in `_key` is left alone.
@Suite("PostgreSQL: keys stored before quote folding, the app's tables too", .requiresPostgres)
struct PostgresQuoteFoldingTests {
    @Test("Migration 0007 folds the app's keys that the library wrote, and leaves other _key columns")
    func appKeysFolded() throws {
        let database = try PostgresTestServer.shared().createDatabase(prefix: "quote_folding_app")
        var options = PostgresEngine.Options()
        options.appMigrations = [Venue.migration]
        do {
            let catalogue = try Catalogue.connect(to: database.url, options: options)
            _ = try catalogue.write { db in
                try db.upsert(contentsOf: [Venue(name: "O‘zbek “Deluxe” café", town: "Tashkent"), Venue(name: "Plain", town: "Lyon")])
            }
        }
        // As a catalogue the version before left them: keys with the marks, the migration not applied.
        try database.psql("""
            UPDATE venue SET name_key = 'o‘zbek “deluxe” cafe' WHERE name = 'O‘zbek “Deluxe” café';
            UPDATE country_alias SET alias_key = 'o‘zbekiston respublikasi' WHERE alias = 'O‘zbekiston Respublikasi';
            DELETE FROM catalogue_migrations WHERE identifier = '0007_quote_folding';
            CREATE TABLE api (service text, service_key text);
            INSERT INTO api VALUES ('Mail', 'k’3y'), ('O’Neil', 'o’neil');
            """)
        _ = try database.waitForNoSessions(timeout: 60)
        let catalogue = try Catalogue.connect(to: database.url, options: options)
        #expect(try database.psql("SELECT name_key FROM venue ORDER BY name") == "o'zbek \"deluxe\" cafe\nplain\n")
        #expect(try database.psql("SELECT alias_key FROM country_alias WHERE alias = 'O‘zbekiston Respublikasi'") == "o'zbekiston respublikasi\n")
        // A _key column that is no fold of its namesake keeps what it holds; one that is, is folded.
        #expect(try database.psql("SELECT string_agg(service_key, '|' ORDER BY service) FROM api") == "k’3y|o'neil\n")
        #expect(try database.psql("SELECT count(*) FROM catalogue_migrations WHERE identifier = '0007_quote_folding'") == "1\n")
        let found = try catalogue.fetch(FetchRequest<Venue>(predicate: .beginsWith("name", "o'zbek \"del", options: .caseAndDiacriticInsensitive)))
        #expect(found.map(\.name) == ["O‘zbek “Deluxe” café"])
        #expect(try catalogue.fetch(CatalogueSearch.countries(matching: "o'zbek")).map(\.code) == ["UZ"])
    }
}
#endif
