import Foundation
import PostgresTestSupport
import Testing

/// Migration 0007: keys stored when the folding kept typographic apostrophes and quotation
/// marks are folded to their ASCII forms, as the library folds them now; other keys stay.
@Suite("PostgreSQL: typographic quotes in stored keys (migration 0007)", .requiresPostgres)
struct QuoteFoldingTests {
    @Test("Every key column: the marks become ' and \", the rest of the key and every other row stay")
    func foldsStoredKeys() throws {
        let database = try MigratedDatabase.make(prefix: "quote_folding")
        try database.psql("""
            INSERT INTO country (id, code, name, name_key, capital, capital_key)
                VALUES (1, 'UZ', 'Uzbekistan', 'uzbekistan', 'Toshkent ‘x’', 'toshkent ‘x’'),
                       (2, 'CI', 'Côte d’Ivoire', 'cote d’ivoire', NULL, NULL);
            INSERT INTO country_alias VALUES (1, 'O‘zbekiston Respublikasi', 'o‘zbekiston respublikasi'), (2, 'Ivory Coast', 'ivory coast');
            INSERT INTO product (name, name_key, type, type_key) VALUES
                ('Ma‚amoul „Deluxe“ tin', 'ma‚amoul „deluxe“ tin', 'Kids‛ ʼfood', 'kids‛ ʼfood'),
                ('iMac 27‟ display', 'imac 27‟ display', 'desk', 'desk'),
                ('Plain', 'plain', 'desk', 'desk');
            """)
        try MigratedDatabase.apply("0007_quote_folding.sql", to: database)
        let keys = try database.psql("""
            SELECT string_agg(k, '|' ORDER BY k) FROM (
                SELECT name_key AS k FROM country UNION ALL SELECT coalesce(capital_key, '-') FROM country
                UNION ALL SELECT alias_key FROM country_alias
                UNION ALL SELECT name_key FROM product UNION ALL SELECT type_key FROM product) keys
            """)
        #expect(keys == """
            -|cote d'ivoire|desk|desk|imac 27" display|ivory coast|kids' 'food|ma'amoul "deluxe" tin|o'zbekiston respublikasi|plain|toshkent 'x'|uzbekistan

            """)
    }
}
