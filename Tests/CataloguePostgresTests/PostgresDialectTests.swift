#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Testing

/// The SQL the PostgreSQL dialect writes for each part of a request: user text always bound.
@Suite("PostgreSQL dialect")
struct PostgresDialectTests {
    let dialect = PostgresDialect()

    @Test("A prefix search is a bound range on the key, in display order, LIMIT NULL for no limit")
    func prefixRange() throws {
        let products = try CatalogueSearch.products(matching: "Crè").selectSQL(in: dialect)
        #expect(products.sql.hasSuffix(
            "FROM product WHERE product.name_key >= $1 AND product.name_key < $2 "
                + "ORDER BY product.name_key, product.name, product.id LIMIT $3 OFFSET $4"))
        #expect(products.arguments == [.text("cre"), .text("crf"), .null, .integer(0)])
        // A nullable column sorts NULL first, as SQLite does (capital may be NULL).
        let select = try CatalogueSearch.countries(matching: "bog", scope: .capital).selectSQL(in: dialect)
        #expect(select.sql.hasSuffix(
            "FROM country WHERE country.capital_key >= $1 AND country.capital_key < $2 "
                + "ORDER BY country.capital_key NULLS FIRST, country.capital NULLS FIRST, country.id LIMIT $3 OFFSET $4"))
        #expect(select.arguments == [.text("bog"), .text("boh"), .null, .integer(0)])
        let descending = try FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("capital", ascending: false)])
            .selectSQL(in: dialect)
        #expect(descending.sql.contains("ORDER BY country.capital DESC NULLS LAST, country.id LIMIT"))
        // No successor (only U+10FFFF): the range has no upper end.
        let open = try FetchRequest<Product>(predicate: .beginsWith("name", "\u{10FFFF}", options: .caseAndDiacriticInsensitive))
            .countSQL(in: dialect)
        #expect(open.sql == "SELECT count(*) FROM product WHERE product.name_key >= $1")
    }

    @Test("CONTAINS, ENDSWITH and LIKE: LIKE … ESCAPE with %, _ and \\ escaped")
    func likeForms() throws {
        let contains = try FetchRequest<Product>(predicate: .contains("name", "50%_a\\b", options: .caseAndDiacriticInsensitive))
            .countSQL(in: dialect)
        #expect(contains.sql == "SELECT count(*) FROM product WHERE product.name_key LIKE $1 ESCAPE '\\'")
        #expect(contains.arguments == [.text("%50\\%\\_a\\\\b%")])
        let endsWith = try FetchRequest<Product>(predicate: .endsWith("name", "Mini")).countSQL(in: dialect)
        #expect(endsWith.sql == "SELECT count(*) FROM product WHERE product.name LIKE $1 ESCAPE '\\'")
        #expect(endsWith.arguments == [.text("%Mini")])
        let like = try FetchRequest<Product>(predicate: try FetchPredicate(format: "name LIKE %@", "iP?d*%")).countSQL(in: dialect)
        #expect(like.sql == "SELECT count(*) FROM product WHERE product.name >= $1 AND product.name < $2 AND product.name LIKE $3 ESCAPE '\\'")
        #expect(like.arguments == [.text("iP"), .text("iQ"), .text("iP_d%\\%")])
    }

    @Test("CONTAINS of one or two characters on the product name's key: strpos, and the short substring index's condition")
    func shortContains() throws {
        let short = "SELECT count(*) FROM product WHERE (strpos(product.name_key, $1) > 0 "
            + "AND catalogue_short_substrings(product.name_key) @> ARRAY[$2]::text[])"
        for (text, folded) in [("Mo", "mo"), ("É", "e"), ("%_", "%_"), ("\\", "\\")] {
            let count = try FetchRequest<Product>(predicate: .contains("name", text, options: .caseAndDiacriticInsensitive))
                .countSQL(in: dialect)
            #expect(count.sql == short, "\(text)")
            #expect(count.arguments == [.text(folded), .text(folded)], "\(text)")
        }
        // Three characters: the trigram index's LIKE. Another column, or no key: LIKE.
        let three = try FetchRequest<Product>(predicate: .contains("name", "mug", options: .caseAndDiacriticInsensitive)).countSQL(in: dialect)
        #expect(three.sql == "SELECT count(*) FROM product WHERE product.name_key LIKE $1 ESCAPE '\\'")
        let unkeyed = try FetchRequest<Product>(predicate: .contains("name", "Mo")).countSQL(in: dialect)
        #expect(unkeyed.sql == "SELECT count(*) FROM product WHERE product.name LIKE $1 ESCAPE '\\'")
        let capital = try FetchRequest<Country>(predicate: .contains("capital", "ot", options: .caseAndDiacriticInsensitive))
            .countSQL(in: dialect)
        #expect(capital.sql == "SELECT count(*) FROM country WHERE country.capital_key LIKE $1 ESCAPE '\\'")
        // Among an OR's alternatives or under NOT (where PostgreSQL would compute the list of
        // each row it checks): LIKE. The one member of an OR, and a conjunct: the short form.
        let alternative = try FetchRequest<Product>(
            predicate: .contains("name", "mo", options: .caseAndDiacriticInsensitive) || .equals("year", 20)).countSQL(in: dialect)
        #expect(alternative.sql == "SELECT count(*) FROM product WHERE (product.name_key LIKE $1 ESCAPE '\\') OR (product.year = $2)")
        let negated = try FetchRequest<Product>(predicate: .not(.contains("name", "mo", options: .caseAndDiacriticInsensitive)))
            .countSQL(in: dialect)
        #expect(negated.sql == "SELECT count(*) FROM product WHERE NOT (product.name_key LIKE $1 ESCAPE '\\')")
        let conjunct = try FetchRequest<Product>(
            predicate: .or([.contains("name", "mo", options: .caseAndDiacriticInsensitive)]) && .equals("year", 20)).countSQL(in: dialect)
        #expect(conjunct.sql == "SELECT count(*) FROM product WHERE ((" + short.dropFirst("SELECT count(*) FROM product WHERE ".count)
            + ")) AND (product.year = $3)", "\(conjunct.sql)")
        let terms = try CatalogueSearch.products(matching: "lamp 20", mode: .terms).countSQL(in: dialect)
        #expect(!terms.sql.contains("catalogue_short_substrings") && terms.sql.contains("LIKE $2"), "\(terms.sql)")
        let twoShortTerms = try CatalogueSearch.products(matching: "mo ug", mode: .terms).countSQL(in: dialect)
        #expect(twoShortTerms.sql.components(separatedBy: "catalogue_short_substrings(").count == 3, "\(twoShortTerms.sql)")
        // U+0000 still matches nothing, unsent.
        let nul = try FetchRequest<Product>(predicate: .contains("name", "a\u{0}", options: .caseAndDiacriticInsensitive)).countSQL(in: dialect)
        #expect(nul.arguments.isEmpty, "\(nul.sql)")
    }

    @Test("Words: a tsquery built in SQL from the folded words bound as one text, ranked in tiers (ts_rank alone)")
    func fullText() throws {
        let select = try CatalogueSearch.countries(matching: "Côte D'IV", mode: .words).selectSQL(in: dialect)
        #expect(select.sql.contains(
            " FROM country WHERE country.name_words @@ (SELECT string_agg(quote_literal(w) || ':*', ' & ')::tsquery "
                + "FROM unnest(string_to_array($1, ' ')) AS w) ORDER BY CASE WHEN country.name_key >= $2 AND country.name_key < $3 "
                + "AND (country.name_key = $4 OR country.name_key >= $5) THEN 0 WHEN country.name_key >= $6 AND country.name_key < $7 "
                + "THEN 1 ELSE 2 END, country.name_key, country.name, country.id LIMIT $8 OFFSET $9"))
        #expect(Array(select.arguments.prefix(7)) == ["cote d iv", "cote d iv", "cote d iv!", "cote d iv", "cote d iv ", "cote d iv", "cote d iw"].map { .text($0) })
        // Relevance alone: ts_rank, over the query joined once.
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "Côte D'IV", columns: ["name", "aliases"]))
        let scored = try FetchRequest<Country>(predicate: .fullText(pattern), sortDescriptors: [.relevance]).selectSQL(in: dialect)
        #expect(scored.sql.contains(
            "FROM country CROSS JOIN (SELECT (SELECT string_agg(quote_literal(w) || ':*', ' & ')::tsquery "
                + "FROM unnest(string_to_array($1, ' ')) AS w) AS q) AS catalogue_query "
                + "WHERE country.name_words @@ catalogue_query.q"))
        #expect(scored.sql.contains("ORDER BY ts_rank(country.name_words, catalogue_query.q, 1) DESC, country.id LIMIT"))
        #expect(scored.arguments.first == .text("cote d iv"))
        let any = try CatalogueSearch.countries(matching: "bog", scope: .any, mode: .words).countSQL(in: dialect)
        #expect(any.sql.contains("(country.name_words || country.capital_words) @@ "))
        let products = try CatalogueSearch.products(matching: "crème", mode: .words).countSQL(in: dialect)
        #expect(products.sql.contains("product.words @@ "))
        #expect(products.arguments == [.text("creme")])
        // A page in no order or by id: the match in WHERE, as any predicate, not SQLite's
        // streamed match source. In no order, the query is a materialized CTE, so the planner
        // plans it for every match (the GIN index) and the LIMIT outside stops the read.
        #expect(!dialect.streamsMatchSource)
        let wordsPattern = try #require(FullTextPattern(matchingAllPrefixesIn: "crème"))
        for order in [[], [FetchSortDescriptor("id")]] {
            let page = try FetchRequest<Product>(predicate: .fullText(wordsPattern), sortDescriptors: order, fetchLimit: 50).selectSQL(in: dialect)
            #expect(page.sql.contains(" FROM product WHERE product.words @@ (SELECT "), "\(page.sql)")
            #expect(!page.sql.contains("CROSS JOIN"), "\(page.sql)")
            #expect(page.sql.hasPrefix("WITH catalogue_matches AS MATERIALIZED (SELECT ") == order.isEmpty, "\(page.sql)")
            #expect(page.sql.hasSuffix(order.isEmpty
                ? ") SELECT * FROM catalogue_matches LIMIT $2 OFFSET $3" : " ORDER BY product.id LIMIT $2 OFFSET $3"), "\(page.sql)")
        }
        // Without a full-text match, a page in no order is the plain query.
        let unordered = try FetchRequest<Product>(predicate: .equals("type", "kitchen"), sortDescriptors: [], fetchLimit: 50)
            .selectSQL(in: dialect)
        #expect(unordered.sql.hasPrefix("SELECT ") && !unordered.sql.contains("catalogue_matches"), "\(unordered.sql)")
    }

    @Test("A CONTAINS page in key order: the first keys in order, then the matches beyond them as a materialized query")
    func containsPageParts() throws {
        #expect(dialect.splitsContainsPages)
        var request = CatalogueSearch.products(matching: "crème", mode: .contains)
        request.fetchLimit = 50
        request.fetchOffset = 10
        let page = try request.selectSQL(in: dialect)
        let columns = "product.id, product.name, product.type, product.year, product.price"
        let bound = "coalesce((SELECT product.name_key FROM product WHERE product.name_key IS NOT NULL "
            + "ORDER BY product.name_key LIMIT 1 OFFSET $1), (SELECT max(product.name_key) FROM product))"
        let within: String = "SELECT * FROM (SELECT * FROM (SELECT " + columns + " FROM product WHERE (product.name_key <= " + bound
            + ") AND (product.name_key LIKE $2 ESCAPE '\\') ORDER BY product.name_key, product.name, product.id LIMIT $3) "
            + "AS catalogue_within UNION ALL SELECT * FROM (WITH catalogue_matches AS MATERIALIZED (SELECT product.* FROM product "
            + "WHERE (product.name_key > coalesce("
        let beyond: String = "AND (product.name_key LIKE $5 ESCAPE '\\')) SELECT " + columns
            + " FROM catalogue_matches AS product ORDER BY product.name_key, product.name, product.id LIMIT $6) "
            + "AS catalogue_beyond) AS catalogue_page LIMIT $7 OFFSET $8"
        #expect(page.sql.hasPrefix(within), "\(page.sql)")
        #expect(page.sql.hasSuffix(beyond), "\(page.sql)")
        #expect(page.arguments == [
            .integer(Int64(OrderedReadBound.limit - 1)), .text("%creme%"), .integer(60),
            .integer(Int64(OrderedReadBound.limit - 1)), .text("%creme%"), .integer(60), .integer(50), .integer(10),
        ])
        // Split too: one or two letters (the short substring index lists the matches beyond).
        #expect(dialect.shortestSplitContainsText == 1)
        for text in ["c", "cr"] {
            var short = CatalogueSearch.products(matching: text, mode: .contains)
            short.fetchLimit = 50
            let sql = try short.selectSQL(in: dialect).sql
            #expect(sql.contains("AS catalogue_within UNION ALL") && sql.components(separatedBy: "catalogue_short_substrings(").count == 3,
                    "\(sql)")
            // The bound filters the materialized matches instead of joining their query.
            #expect(sql.contains("MATERIALIZED (SELECT product.* FROM product WHERE ((strpos(product.name_key, "), "\(sql)")
            #expect(sql.contains("FROM catalogue_matches AS product WHERE product.name_key > coalesce("), "\(sql)")
        }
        // Not split: every match (no limit), another order, a count.
        var every = request
        every.fetchLimit = nil
        var byPrice = request
        byPrice.sortDescriptors = [FetchSortDescriptor("price")]
        for plain in [every, byPrice] {
            let sql = try plain.selectSQL(in: dialect).sql
            #expect(sql.hasPrefix("SELECT product.id") && !sql.contains("catalogue_"), "\(sql)")
        }
        #expect(try request.countSQL(in: dialect).sql == "SELECT count(*) FROM product WHERE product.name_key LIKE $1 ESCAPE '\\'")
    }

    @Test("Folding a column without a key is refused, not answered differently")
    func unkeyedFolding() throws {
        #expect(throws: FetchRequestError.self) {
            try FetchRequest<Country>(predicate: .equals("continent", "europe", options: .caseInsensitive)).countSQL(in: dialect)
        }
        // With a key: the key, exactly.
        let keyed = try FetchRequest<Country>(predicate: .equals("name", "cote d'ivoire", options: .caseAndDiacriticInsensitive))
            .countSQL(in: dialect)
        #expect(keyed.sql == "SELECT count(*) FROM country WHERE country.name_key = $1")
    }

    @Test("MATCHES: ~ and ~* anchored; [cd] on the key; constructs read differently by ICU and ARE refused")
    func matches() throws {
        let plain = try FetchRequest<Product>(predicate: try FetchPredicate(format: "name MATCHES %@", "iP.d( mini)?")).countSQL(in: dialect)
        #expect(plain.sql == "SELECT count(*) FROM product WHERE product.name ~ $1")
        #expect(plain.arguments == [.text("^(?:iP.d( mini)?)$")])
        let cd = try FetchRequest<Product>(predicate: try FetchPredicate(format: "name MATCHES[cd] %@", "CRÈME.*")).countSQL(in: dialect)
        #expect(cd.sql == "SELECT count(*) FROM product WHERE product.name_key ~* $1")
        #expect(cd.arguments == [.text("^(?:CREME.*)$")])
        for pattern in ["\\bword", "\\p{L}+", "(?<name>x)", "a*+", "(?i)x"] {
            #expect(throws: FetchRequestError.self, "\(pattern)") {
                try FetchRequest<Product>(predicate: try FetchPredicate(format: "name MATCHES %@", pattern)).countSQL(in: dialect)
            }
        }
        #expect(throws: FetchRequestError.self) {
            try FetchRequest<Product>(predicate: try FetchPredicate(format: "name MATCHES[c] %@", "é.*")).countSQL(in: dialect)
        }
        #expect(throws: FetchRequestError.self) {
            try FetchRequest<Product>(predicate: try FetchPredicate(format: "name MATCHES[d] %@", "e.*")).countSQL(in: dialect)
        }
    }

    @Test("A WHERE's AND past 64 conditions: the rest one (…) IS TRUE; not under NOT, where NULL is not FALSE")
    func longConjunction() throws {
        let terms = (0..<70).map { "term\($0)" }.joined(separator: " ")
        let count = try CatalogueSearch.products(matching: terms, mode: .terms).countSQL(in: dialect)
        let condition = "(product.name_key LIKE $N ESCAPE '\\')"
        let numbered = count.sql.replacing(/\$[0-9]+/, with: "$N")
        let planned = Array(repeating: "(\(condition))", count: 64).joined(separator: " AND ")
        #expect(numbered.hasPrefix("SELECT count(*) FROM product WHERE \(planned) AND ((\(condition)) AND "))
        #expect(numbered.hasSuffix(") IS TRUE"))
        #expect(count.arguments.count == 70)
        #expect(count.arguments.last == .text("%term69%"))
        let negated = try FetchRequest<Product>(predicate: .not(CatalogueSearch.products(matching: terms, mode: .terms).predicate))
            .countSQL(in: dialect)
        #expect(!negated.sql.contains("IS TRUE"))
        let short = try CatalogueSearch.products(matching: "a1 b2 c3", mode: .terms).countSQL(in: dialect)
        #expect(!short.sql.contains("IS TRUE"))
    }

    @Test("TRUE, FALSE, IS DISTINCT FROM")
    func basics() throws {
        #expect(try FetchRequest<Product>().countSQL(in: dialect).sql == "SELECT count(*) FROM product WHERE TRUE")
        let notEqual = try FetchRequest<Product>(predicate: .notEquals("year", 2007)).countSQL(in: dialect)
        #expect(notEqual.sql == "SELECT count(*) FROM product WHERE product.year IS DISTINCT FROM $1")
    }
}
#endif
