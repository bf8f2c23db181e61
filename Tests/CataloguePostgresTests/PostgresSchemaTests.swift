#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// Several catalogues in one database, each in a schema of its own, chosen by the URL's
/// `options=-c search_path=NAME`: their own rows, their own trigram indexes whichever schema
/// pg_trgm was installed in, and only their own changes heard on the database's shared channel.
@Suite("PostgreSQL: a catalogue in a schema of its own", .requiresPostgres, .timeLimit(.minutes(5)))
struct PostgresSchemaTests {
    /// `url` with the options that put the catalogue in `schema`.
    static func url(_ url: String, schema: String) -> String {
        url + "?options=-c%20search_path%3D" + schema
    }

    /// The names of the trigram indexes in `schema`, comma-separated.
    static func trigramIndexes(in database: PostgresTestDatabase, schema: String) throws -> String {
        try database.psql(
            "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE schemaname = :'schema' AND indexname LIKE '%trigrams'",
            variables: ["schema": schema])
    }

    static let trigramIndexNames =
        "country_alias_key_trigrams,country_capital_key_trigrams,country_name_key_trigrams,product_name_key_trigrams\n"

    @Test("Two catalogues in two schemas of one database keep their own rows; the second uses the pg_trgm the first installed")
    func twoCatalogues() async throws {
        try await onOwnThread {
            // template0: no pg_trgm yet; the first catalogue installs it, in its own schema.
            let database = try PostgresTestServer.shared().createDatabase(prefix: "schemas", template: "template0")
            try database.psql("CREATE SCHEMA shop; CREATE SCHEMA staging")
            let shop = try Catalogue.connect(to: Self.url(database.url, schema: "shop"))
            let staging = try Catalogue.connect(to: Self.url(database.url, schema: "staging"))
            #expect(shop.postgres?.schema == "shop")
            #expect(staging.postgres?.schema == "staging")
            #expect(shop.location == database.url + "?options=-c%20search_path%3Dshop")
            #expect(try database.psql(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'")
                == "shop\n")
            for (catalogue, schema) in [(shop, "shop"), (staging, "staging")] {
                #expect(catalogue.postgres?.capabilities.trigramIndexes == true, "\(schema)")
                #expect(try Self.trigramIndexes(in: database, schema: schema) == Self.trigramIndexNames, "\(schema)")
            }
            #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")

            try shop.write { db in _ = try db.insert(Product(name: "Zebra lamp", type: "lamp")) }
            #expect(try shop.fetch(CatalogueSearch.products(matching: "ebra", mode: .contains)).map(\.name) == ["Zebra lamp"])
            #expect(try staging.fetch(CatalogueSearch.products(matching: "ebra", mode: .contains)).isEmpty)
            #expect(try database.psql("SELECT count(*) FROM shop.product WHERE name = 'Zebra lamp'") == "1\n")
            #expect(try database.psql("SELECT count(*) FROM staging.product WHERE name = 'Zebra lamp'") == "0\n")
        }
    }

    @Test("pg_trgm in a schema of extensions off the search_path serves the indexes; one the role may not use is done without")
    func extensionSchema() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let database = try server.createDatabase(prefix: "ext_schema", template: "template0")
            try database.psql("CREATE SCHEMA extensions; CREATE EXTENSION pg_trgm SCHEMA extensions; CREATE SCHEMA shop")
            let shop = try Catalogue.connect(to: Self.url(database.url, schema: "shop"))
            #expect(shop.postgres?.capabilities.trigramIndexes == true)
            #expect(try Self.trigramIndexes(in: database, schema: "shop") == Self.trigramIndexNames)
            #expect(try shop.fetch(CatalogueSearch.countries(matching: "ivoire", mode: .contains)).map(\.name) == ["Côte d'Ivoire"])

            // A role with a schema of its own and no USAGE on `extensions`.
            let role = "schema_role_" + UUID().uuidString.prefix(8).lowercased()
            let password = "pw-" + UUID().uuidString
            try server.createRole(role, password: password)
            try database.psql("CREATE SCHEMA team AUTHORIZATION :\"role\"", variables: ["role": role])
            let team = try Catalogue.connect(
                to: Self.url(server.url(database: database.name, user: role, password: password), schema: "team"))
            #expect(team.postgres?.capabilities.trigramIndexes == false)
            #expect(try Self.trigramIndexes(in: database, schema: "team") == "\n")
            #expect(try team.fetch(CatalogueSearch.countries(matching: "ivoire", mode: .contains)).map(\.name) == ["Côte d'Ivoire"])
        }
    }

    @Test("A catalogue hears other writers to its own schema, not to another schema of the same database; triggers log in their own schema")
    func changesOfOtherSchemas() async throws {
        let database = try await onOwnThread {
            let database = try PostgresTestServer.shared().createDatabase(prefix: "schema_changes")
            try database.psql("CREATE SCHEMA shop; CREATE SCHEMA staging")
            return database
        }
        let listener = try await onOwnThread { try Catalogue.connect(to: Self.url(database.url, schema: "shop")) }
        #expect(listener.postgres?.capabilities.listenNotify == true)
        let changes = try await onOwnThread { listener.changes(pollingInterval: .milliseconds(20)) }
        var iterator = changes.makeAsyncIterator()
        // Both schemas number their rows alike: staging's row gets an id of its own, so that
        // the ids tell the changes apart. psql's search_path is the default one: the triggers
        // still log into staging's tables.
        try await onOwnThread {
            _ = try Catalogue.connect(to: Self.url(database.url, schema: "staging"))
            try database.psql("""
                INSERT INTO staging.product (id, name, name_key, type, type_key, words)
                VALUES (900001, 'Staging lamp', 'staging lamp', 'lamp', 'lamp', array_to_tsvector('{staging,lamp}'))
                """)
            #expect(try database.psql("SELECT count(*) FROM staging.catalogue_change WHERE row_id = 900001") == "1\n")
            #expect(try database.psql("SELECT count(*) FROM staging.catalogue_word WHERE word = 'staging'") == "1\n")
        }
        let shopWriter = try await onOwnThread { try Catalogue.connect(to: Self.url(database.url, schema: "shop")) }
        let shopID = try await shopWriter.write { db in try db.insert(Product(name: "Shop lamp", type: "lamp")).id }
        let change = try #require(try await iterator.next())
        #expect(change.origin == .elsewhere)
        #expect(change.changedIDs(of: Product.self) == [try #require(shopID)], "\(change)")
    }

    @Test("A search_path that names no existing schema is one line saying so, and nothing is created")
    func missingSchema() async throws {
        try await onOwnThread {
            let database = try PostgresTestServer.shared().createDatabase(prefix: "no_schema")
            let url = Self.url(database.url, schema: "nowhere")
            #expect {
                try Catalogue.connect(to: url)
            } throws: { error in
                "\(error)" == "cannot use \(url): no schema of the search_path (nowhere) exists; create the catalogue's (CREATE SCHEMA name) or choose one that exists (options=-c search_path=name)"
            }
            #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')") == "0\n")
        }
    }
}
#endif
