import Foundation
import PostgresTestSupport
import Testing

/// migrations/postgres/0001_initial.sql: the catalogue's tables with SQLite's constraints, every
/// text column in code point order, and the stored section column.
@Suite("PostgreSQL schema 0001", .requiresPostgres)
struct InitialSchemaTests {
    @Test("The migration creates the catalogue's tables in one transaction")
    func tables() throws {
        let database = try MigratedDatabase.make(prefix: "schema")
        let tables = try database.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        #expect(tables == "catalogue_change\ncatalogue_info\ncountry\ncountry_alias\nproduct\n")
        // No extension needed: the trigram indexes are 0003's, where pg_trgm is installed.
        #expect(try database.psql("SELECT count(*) FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%'") == "0\n")
    }

    @Test("Every B-tree index declares its first column ASC (YugabyteDB hashes it otherwise); on PostgreSQL that is the default")
    func btreeOrder() throws {
        let sql = try String(contentsOf: MigratedDatabase.migrationsURL.appendingPathComponent("0001_initial.sql"), encoding: .utf8)
        let btrees = sql.split(separator: "\n").filter { $0.hasPrefix("CREATE INDEX") && !$0.contains("USING gin") }
        #expect(btrees.count == 9)
        for line in btrees {
            let columns = line.drop { $0 != "(" }.dropFirst()
            let first = columns.prefix { $0 != "," && $0 != ")" }
            #expect(first.hasSuffix(" ASC"), "\(line)")
        }
        // PostgreSQL stores the same index as without ASC.
        let database = try MigratedDatabase.make(prefix: "btree_order")
        #expect(try database.psql("SELECT indexdef FROM pg_indexes WHERE indexname = 'product_by_name_key'")
            == "CREATE INDEX product_by_name_key ON public.product USING btree (name_key, name, id)\n")
    }

    @Test("Every text column compares in code point order (COLLATE \"C\"), like SQLite's BINARY")
    func collation() throws {
        let database = try MigratedDatabase.make(prefix: "collation")
        let other = try database.psql("""
            SELECT table_name || '.' || column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type = 'text' AND collation_name IS DISTINCT FROM 'C'
            """)
        #expect(other == "")
        // The test server's default collation is C.UTF-8, which PostgreSQL does not treat as "C".
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key) VALUES
              ('øre', 'øre', 't', 't'), ('Zulu', 'zulu', 't', 't'), ('apple', 'apple', 't', 't'), ('Apple', 'apple', 't', 't');
            """)
        #expect(try database.psql("SELECT name FROM product ORDER BY name_key, name, id") == "Apple\napple\nZulu\nøre\n")
    }

    @Test("The section is the initial letter after folding, '#' otherwise", arguments: [
        ("Åland Islands", "aland islands", "A"),
        ("Çad", "cad", "C"),
        ("zulu", "zulu", "Z"),
        ("'s-Hertogenbosch", "'s-hertogenbosch", "#"),
        ("1-800 Flowers", "1-800 flowers", "#"),
        ("Øresund", "øresund", "#"),
        ("{brace}", "{brace}", "#"),
    ])
    func sections(name: String, key: String, section: String) throws {
        let database = try MigratedDatabase.make(prefix: "sections")
        let inserted = try database.psql(
            "INSERT INTO product (name, name_key, type, type_key) VALUES (:'name', :'key', 't', 't') RETURNING section",
            variables: ["name": name, "key": key])
        #expect(inserted == section + "\n")
    }

    @Test("Constraints refuse what SQLite's schema refuses", arguments: [
        "INSERT INTO country (code, name, name_key) VALUES ('Ci', 'x', 'x')",
        "INSERT INTO country (code, name, name_key) VALUES ('CIV', 'x', 'x')",
        "INSERT INTO country (code, name, name_key) VALUES ('CI', '', '')",
        "INSERT INTO country (code, name, name_key, population) VALUES ('CI', 'x', 'x', -1)",
        "INSERT INTO product (name, name_key, type, type_key, year) VALUES ('x', 'x', 't', 't', 10000)",
        "INSERT INTO product (name, name_key, type, type_key, price) VALUES ('x', 'x', 't', 't', -0.5)",
        "INSERT INTO product (name, name_key, type, type_key) VALUES ('x', 'x', 't', 't'), ('x', 'x', 'T', 't')",
    ])
    func constraints(statement: String) throws {
        let database = try MigratedDatabase.make(prefix: "constraints")
        #expect(throws: PostgresTestServerError.self) { try database.psql(statement) }
        // upper() under "C" only changes ASCII letters, as SQLite's upper() does.
        #expect(try database.psql("INSERT INTO country (code, name, name_key) VALUES ('ÅX', 'x', 'x') RETURNING code") == "ÅX\n")
    }

    @Test("Deleting a country deletes its aliases")
    func aliasCascade() throws {
        let database = try MigratedDatabase.make(prefix: "aliases")
        try database.psql("""
            INSERT INTO country (id, code, name, name_key) VALUES (7, 'CI', 'Côte d''Ivoire', 'cote d''ivoire');
            INSERT INTO country_alias VALUES (7, 'Ivory Coast', 'ivory coast');
            DELETE FROM country WHERE id = 7;
            """)
        #expect(try database.psql("SELECT count(*) FROM country_alias") == "0\n")
    }
}
