import Foundation
import PostgresTestSupport
import Testing

/// The indexes behind each search mode, and the SQL shapes the engine will use with them: the
/// prefix range in display order (also as a generic plan), CONTAINS through trigrams with an
/// escaped LIKE pattern, and words through a tsvector of Swift's words queried with bound lexemes.
@Suite("PostgreSQL search indexes", .requiresPostgres)
struct SearchIndexTests {
    /// The prefix page, as the engine will prepare it.
    static let prefixPage = """
        PREPARE prefix_page(text, text, bigint, bigint) AS
          SELECT id, name, type, year, price FROM product
          WHERE name_key >= $1 AND name_key < $2 ORDER BY name_key, name, id LIMIT $3 OFFSET $4;
        """

    @Test("A prefix page is an index range scan in display order, with no sort, even as a generic plan")
    func prefixPagePlan() throws {
        let database = try MigratedDatabase.make(prefix: "prefix_plan")
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key, year, price)
            SELECT 'Name ' || g, 'name ' || g, 't', 't', 2000, 1 FROM generate_series(1, 20000) g;
            ANALYZE product;
            """)
        for mode in ["force_custom_plan", "force_generic_plan"] {
            let plan = try database.psql("""
                SET plan_cache_mode = \(mode);
                \(Self.prefixPage)
                EXPLAIN (COSTS OFF) EXECUTE prefix_page('name 12', 'name 13', 50, 0);
                """)
            #expect(plan.contains("Index Scan using product_by_name_key on product"), "\(mode): \(plan)")
            #expect(!plan.contains("Sort"), "\(mode): \(plan)")
            if mode == "force_generic_plan" {
                #expect(plan.contains("Index Cond: ((name_key >= $1) AND (name_key < $2))"), "\(plan)")
            }
        }
        let page = try database.psql("""
            \(Self.prefixPage)
            EXECUTE prefix_page('name 1999', 'name 199:', 3, 1);
            """)
        #expect(page == "19990|Name 19990|t|2000|1\n19991|Name 19991|t|2000|1\n19992|Name 19992|t|2000|1\n")
    }

    @Test("CONTAINS is LIKE on the key with %, _ and \\ escaped, served by the trigram index of 0003")
    func containsThroughTrigrams() throws {
        let database = try MigratedDatabase.make(prefix: "contains", more: ["0002_notify_backend.sql", "0003_trigram_indexes.sql"])
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key) VALUES
              ('100% Cotton', '100% cotton', 't', 't'), ('100x cotton', '100x cotton', 't', 't'),
              ('a_b', 'a_b', 't', 't'), ('axb', 'axb', 't', 't'), ('back\\slash', 'back\\slash', 't', 't');
            """)
        func contains(_ text: String) throws -> String {
            try database.psql(
                "SELECT name FROM product WHERE name_key LIKE :'pattern' ESCAPE '\\' ORDER BY name_key, name, id",
                variables: ["pattern": Self.containsPattern(text)])
        }
        #expect(try contains("0% c") == "100% Cotton\n")
        #expect(try contains("a_") == "a_b\n")
        #expect(try contains("k\\s") == "back\\slash\n")
        #expect(try contains("cotton") == "100% Cotton\n100x cotton\n")
        #expect(try contains("") == "100% Cotton\n100x cotton\na_b\naxb\nback\\slash\n")

        let plan = try database.psql("""
            SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;
            EXPLAIN (COSTS OFF) SELECT count(*) FROM product WHERE name_key LIKE '%cotton%' ESCAPE '\\';
            """)
        #expect(plan.contains("Bitmap Index Scan on product_name_key_trigrams"), "\(plan)")
    }

    @Test("Words: lexemes written as a bound array, matched as bound prefixes, whatever they contain")
    func wordsFromBoundLexemes() throws {
        let database = try MigratedDatabase.make(prefix: "words")
        let hostile = ["it's", "a\\b", "x&y", "!not", "(paren)", "colon:*", "<->"]
        for (index, lexeme) in hostile.enumerated() {
            try database.psql(
                "INSERT INTO product (name, name_key, type, type_key, words) VALUES (:'name', :'name', 't', 't', array_to_tsvector(:'lexemes'::text[]))",
                variables: ["name": "row \(index)", "lexemes": Self.arrayLiteral(["row", lexeme])])
        }
        // The query of a search: every word a prefix, AND-ed, built in SQL from a bound text[].
        let query = """
            SELECT name FROM product
            WHERE words @@ (SELECT string_agg('''' || replace(replace(w, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')::tsquery
                            FROM unnest(:'lexemes'::text[]) w)
            ORDER BY name_key, name, id
            """
        for (index, lexeme) in hostile.enumerated() {
            #expect(try database.psql(query, variables: ["lexemes": Self.arrayLiteral([lexeme])]) == "row \(index)\n", "\(lexeme)")
            let prefix = String(lexeme.prefix(2))
            let matches = try database.psql(query, variables: ["lexemes": Self.arrayLiteral(["ro", prefix])])
            #expect(matches.contains("row \(index)\n"), "\(prefix)")
        }
        #expect(try database.psql(query, variables: ["lexemes": Self.arrayLiteral(["row", "nothing"])]) == "")
        let plan = try database.psql("SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT id FROM product WHERE words @@ '''ro'':*'::tsquery")
        #expect(plan.contains("Bitmap Index Scan on product_words"), "\(plan)")
    }

    @Test("0004 keeps every word written to the vectors: rows there before it, inserted (also by COPY) and updated ones")
    func wordVocabulary() throws {
        let database = try MigratedDatabase.make(prefix: "vocabulary", more: ["0002_notify_backend.sql", "0003_trigram_indexes.sql"])
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key, words)
            VALUES ('Amber lamp', 'amber lamp', 't', 't', array_to_tsvector('{amber,lamp}'));
            INSERT INTO country (code, name, name_key, capital, capital_key, name_words, capital_words)
            VALUES ('CO', 'Colombia', 'colombia', 'Bogotá', 'bogota', array_to_tsvector('{colombia}'), array_to_tsvector('{bogota}'));
            """)
        try MigratedDatabase.apply("0004_word_vocabulary.sql", to: database)
        let words = "SELECT source || ':' || word FROM catalogue_word ORDER BY source, word"
        #expect(try database.psql(words) == "country:bogota\ncountry:colombia\nproduct:amber\nproduct:lamp\n")
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key, words)
            VALUES ('Desk lampe', 'desk lampe', 't', 't', array_to_tsvector('{desk,lampe}')),
                   ('Lamp', 'lamp', 't', 't', array_to_tsvector('{lamp}'));
            UPDATE product SET name = 'Amber lantern', name_key = 'amber lantern', words = array_to_tsvector('{amber,lantern}')
            WHERE name = 'Amber lamp';
            COPY product (name, name_key, type, type_key, words) FROM STDIN;
            Zephyr\tzephyr\tt\tt\t'zephyr'
            \\.

            """)
        #expect(try database.psql("SELECT word FROM catalogue_word WHERE source = 'product' ORDER BY word")
            == "amber\ndesk\nlamp\nlampe\nlantern\nzephyr\n")
        // Read by the range of a first letter, in bytewise order.
        #expect(try database.psql("SELECT word FROM catalogue_word WHERE source = 'product' AND word >= 'l' AND word < 'm' ORDER BY word")
            == "lamp\nlampe\nlantern\n")
    }

    @Test("0005 lists each key's characters and pairs of characters, which the index serves, and finds what strpos finds")
    func shortSubstrings() throws {
        let database = try MigratedDatabase.make(
            prefix: "short_substrings", more: ["0002_notify_backend.sql", "0003_trigram_indexes.sql", "0004_word_vocabulary.sql"])
        try database.psql("""
            INSERT INTO product (name, name_key, type, type_key) VALUES
              ('Mug 1', 'mug 1', 't', 't'), ('Crème', 'creme', 't', 't'), ('100%_x', '100%_x', 't', 't'), ('Ω', 'ω', 't', 't');
            """)
        try MigratedDatabase.apply("0005_short_contains_index.sql", to: database)
        #expect(try database.psql("SELECT catalogue_short_substrings('mug 1')") == "{m,u,g,\" \",1,mu,ug,\"g \",\" 1\"}\n")
        #expect(try database.psql("SELECT catalogue_short_substrings('ω'), catalogue_short_substrings(''), catalogue_short_substrings(NULL) IS NULL")
            == "{ω}|{}|t\n")
        // Every text of one or two characters of the keys (and some in none): the index's rows
        // are strpos's.
        try database.psql("INSERT INTO product (name, name_key, type, type_key) SELECT 'N' || g, 'n' || g, 't', 't' FROM generate_series(1, 3000) g")
        let mismatches = try database.psql("""
            SET enable_seqscan = off;
            WITH texts(t) AS (SELECT DISTINCT unnest(catalogue_short_substrings(name_key)) FROM product
                              UNION VALUES ('zz'), ('q'), ('%'), ('_x'), ('\\'))
            SELECT count(*) FROM texts
            WHERE ARRAY(SELECT id FROM product WHERE catalogue_short_substrings(name_key) @> ARRAY[t] ORDER BY id)
               <> ARRAY(SELECT id FROM product WHERE strpos(name_key, t) > 0 ORDER BY id);
            """)
        #expect(mismatches == "0\n")
        let plan = try database.psql("""
            SET enable_seqscan = off;
            EXPLAIN (COSTS OFF) SELECT id FROM product WHERE catalogue_short_substrings(name_key) @> ARRAY['g ']::text[];
            """)
        #expect(plan.contains("Bitmap Index Scan on product_name_key_short_substrings"), "\(plan)")
    }

    /// `%text%` with the LIKE wildcards and the escape character escaped.
    static func containsPattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// A PostgreSQL array literal of `elements` (each double-quoted, `"` and `\` escaped).
    static func arrayLiteral(_ elements: [String]) -> String {
        "{" + elements.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
