#if PostgreSQL
@testable import CataloguePostgres
import Testing

/// Migration scripts split into statements: `;` inside quotes, dollar quotes and comments
/// does not end a statement.
@Suite("SQL script")
struct SQLScriptTests {
    @Test("Quotes, dollar quotes, comments and parameters")
    func splits() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE t (x text DEFAULT ';', "we;ird" int); /* block; /* nested; */ still */
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; RETURN NULL; END $$;
            SELECT $body$a;b$body$, E'it\\'s;', 'it''s;', $1;
            """
        #expect(SQLScript.statements(in: script) == [
            "CREATE TABLE t (x text DEFAULT ';', \"we;ird\" int)",
            "/* block; /* nested; */ still */\nCREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; RETURN NULL; END $$",
            "SELECT $body$a;b$body$, E'it\\'s;', 'it''s;', $1",
        ])
    }

    @Test("The catalogue's migrations split into their statements")
    func migration() {
        let statements = SQLScript.statements(in: PostgresResources.migrations[0].sql)
        #expect(statements.first?.hasPrefix("CREATE TABLE catalogue_info (") == true, "\(statements.first ?? "")")
        #expect(!statements.contains { $0.contains("pg_trgm") || $0.contains("gin_trgm_ops") })
        #expect(statements.contains { $0.hasPrefix("CREATE FUNCTION catalogue_record_changes()") && $0.hasSuffix("$$") })
        #expect(statements.filter { $0.hasPrefix("CREATE TRIGGER") }.count == 12)

        // 0003: one DO block, its dollar-quoted semicolons inside it.
        let trigrams = SQLScript.statements(in: PostgresResources.migrations[2].sql)
        #expect(trigrams.count == 1)
        #expect(trigrams.first?.hasPrefix("DO $$") == true, "\(trigrams)")
        #expect(trigrams.first?.hasSuffix("END\n$$") == true, "\(trigrams)")
        #expect(trigrams.first.map { $0.components(separatedBy: "gin_trgm_ops").count - 1 } == 4)
    }
}
#endif
