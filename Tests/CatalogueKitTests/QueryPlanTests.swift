import CatalogueKit
import CatalogueSQLite
import Testing

/// Prefix searches are index range scans: SQLite's plan searches an index and never scans the
/// table.
@Suite("Query plans")
struct QueryPlanTests {
    static let cd = ComparisonOptions.caseAndDiacriticInsensitive
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    func plan<R: Record>(_ request: FetchRequest<R>) throws -> [String] {
        try catalogue.database.read { db in try db.explainQueryPlan(request) }
    }

    /// Checks that the plan searches `table` through `index` and never scans `table`.
    func expectIndexed(_ plan: [String], table: String, index: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let search = plan.first { $0.hasPrefix("SEARCH \(table) ") && $0.contains(" INDEX \(index) ") }
        #expect(search != nil, "no SEARCH of \(table) using \(index) in \(plan)", sourceLocation: sourceLocation)
        #expect(search.map { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") } == true,
                sourceLocation: sourceLocation)
        #expect(!plan.contains { $0.hasPrefix("SCAN \(table)") }, "table scan in \(plan)", sourceLocation: sourceLocation)
    }

    @Test("BEGINSWITH[cd] and [c] on a country name search country_by_name_key", arguments: [
        ComparisonOptions.caseAndDiacriticInsensitive, .caseInsensitive, .diacriticInsensitive,
    ])
    func countryName(options: ComparisonOptions) throws {
        let request = FetchRequest<Country>(predicate: .beginsWith("name", "Bo", options: options), sortDescriptors: FetchSortDescriptor.byName)
        expectIndexed(try plan(request), table: "country", index: "country_by_name_key")
    }

    @Test("BEGINSWITH[cd] and [c] on a capital search country_by_capital_key", arguments: [
        ComparisonOptions.caseAndDiacriticInsensitive, .caseInsensitive,
    ])
    func capital(options: ComparisonOptions) throws {
        let request = FetchRequest<Country>(predicate: .beginsWith("capital", "Bog", options: options), sortDescriptors: FetchSortDescriptor.byName)
        expectIndexed(try plan(request), table: "country", index: "country_by_capital_key")
    }

    @Test("The repository's name search uses the name and alias indexes")
    func repositoryCountrySearch() throws {
        let plan = try plan(CatalogueSearch.countries(matching: "bo"))
        expectIndexed(plan, table: "country", index: "country_by_name_key")
        expectIndexed(plan, table: "country_alias", index: "country_alias_by_key")
        let capitalPlan = try self.plan(CatalogueSearch.countries(matching: "bog", scope: .capital))
        expectIndexed(capitalPlan, table: "country", index: "country_by_capital_key")
        let anyPlan = try self.plan(CatalogueSearch.countries(matching: "bog", scope: .any))
        expectIndexed(anyPlan, table: "country", index: "country_by_name_key")
        expectIndexed(anyPlan, table: "country", index: "country_by_capital_key")
    }

    @Test("A product name prefix search reads product_by_name_key in display order")
    func productName() throws {
        let plan = try plan(CatalogueSearch.products(matching: "ip"))
        expectIndexed(plan, table: "product", index: "product_by_name_key")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("A product search in one type reads product_by_type_and_name_key in display order")
    func productTypeAndName() throws {
        let plan = try plan(CatalogueSearch.products(matching: "ip", scope: .type("Device")))
        expectIndexed(plan, table: "product", index: "product_by_type_and_name_key")
        #expect(plan.contains { $0.contains("type_key=? AND name_key>? AND name_key<?") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        let allOfType = try self.plan(CatalogueSearch.products(matching: " ", scope: .type("device")))
        expectIndexed(allOfType, table: "product", index: "product_by_type_and_name_key")
    }

    @Test("A [c] prefix on products is narrowed by the key index")
    func productCaseInsensitive() throws {
        let request = FetchRequest<Product>(predicate: .beginsWith("name", "iP", options: .caseInsensitive))
        expectIndexed(try plan(request), table: "product", index: "product_by_name_key")
    }

    @Test("Words in no order or by id: the page and the count read FTS5's matches and each one's row, with no list of every match and no sort")
    func wordsByID() throws {
        for (text, order) in [("c", []), ("ip mi", [FetchSortDescriptor("id")]), ("ipad", []), ("i", [FetchSortDescriptor("id")])] {
            let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: text))
            var request = FetchRequest<Product>(
                predicate: .fullText(pattern) && .greaterThan("year", 1990), sortDescriptors: order, fetchLimit: 5)
            let plan = try plan(request)
            #expect(plan.first?.hasPrefix("SCAN product_fts VIRTUAL TABLE") == true, "\(text): \(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH product USING INTEGER PRIMARY KEY") }, "\(text): \(plan)")
            #expect(!plan.contains { $0.contains("LIST SUBQUERY") || $0.contains("TEMP B-TREE") }, "\(text): \(plan)")
            // The rows of the words search sorted by name, ids ascending.
            request.fetchLimit = nil
            var sorted = CatalogueSearch.products(matching: text, mode: .words)
            sorted.predicate = sorted.predicate && .greaterThan("year", 1990)
            let expected = try catalogue.records(sorted).compactMap(\.id).sorted()
            let ids = try catalogue.records(request).compactMap(\.id)
            #expect(ids == expected && !ids.isEmpty, "\(text)")
            #expect(try catalogue.read { try $0.fetchCount(request) } == ids.count)
            #expect(try catalogue.read { try $0.fetchCount(request, stoppingAfter: 2) } == min(2, ids.count))
            request.fetchLimit = 2
            request.fetchOffset = 1
            #expect(try catalogue.records(request).compactMap(\.id) == Array(ids.dropFirst().prefix(2)), "\(text)")
        }
    }

    @Test("A count of words and nothing else reads the FTS5 index alone, no product row; it agrees with the rows found after deletes and renames; another condition reads the rows")
    func wordsCountThroughTheIndexAlone() throws {
        let products = try catalogue.records(FetchRequest<Product>(predicate: .fullText(try #require(FullTextPattern(matchingAllPrefixesIn: "i")))))
        #expect(products.count >= 10)
        try catalogue.write { db in
            for product in products.prefix(5) { #expect(try db.delete(Product.self, id: try #require(product.id))) }
            for var product in products.dropFirst(5).prefix(5) {
                product.name = "Zanzibar lamp \(try #require(product.id))"
                try db.update(product)
            }
        }
        let searches: [(String, MatchMode)] = [
            ("i", .words), ("c", .words), ("ip mi", .words), ("zanz", .words), ("lamp", .words), ("zzqx", .words),
            ("zanzibra", .fuzzy), ("ipda", .fuzzy),
        ]
        for (text, mode) in searches {
            let request = CatalogueSearch.products(matching: text, mode: mode)
            if mode == .words {
                // The matches a page of the same read transaction collected, else the index's count.
                for sql in [try request.countSQL(), try request.countSQL(in: SQLiteDialect(), stoppingAfter: 3)] {
                    #expect(sql.sql.hasPrefix("SELECT coalesce(") && sql.sql.contains("catalogue_known_match_count('product_fts', ?)")
                            && sql.sql.contains("(SELECT count(*) FROM ") && !sql.sql.contains(" product ")
                            && !sql.sql.contains("product.id"), "\(text): \(sql.sql)")
                }
            }
            let rows = try catalogue.records(request).count
            #expect(try catalogue.read { try $0.fetchCount(request) } == rows, "\(text) (\(mode))")
            #expect(try catalogue.read { try $0.fetchCount(request, stoppingAfter: 3) } == min(3, rows), "\(text) (\(mode))")
            let results = try catalogue.search(request, limit: 2, count: .capped(at: 4))
            #expect(results.totalCount == min(4, rows), "\(text) (\(mode))")
            #expect(try catalogue.search(request, limit: 2, count: .exact).totalCount == rows, "\(text) (\(mode))")
            // The page and the count in one read transaction: the count may take the page's matches.
            let (page, counted) = try catalogue.read { db in (try db.fetch(request), try db.fetchCount(request)) }
            #expect(page.count == rows && counted == rows, "\(text) (\(mode))")
        }
        #expect(try catalogue.read { try $0.fetchCount(CatalogueSearch.products(matching: "zanz", mode: .words)) } == 5)
        #expect(try catalogue.read { try $0.fetchCount(CatalogueSearch.products(matching: "zanzibra", mode: .fuzzy)) } == 5)

        var dated = CatalogueSearch.products(matching: "i", mode: .words)
        dated.predicate = dated.predicate && .greaterThan("year", 1990)
        #expect(try dated.countSQL().sql.contains("JOIN product"), "the year is read from the rows")
        #expect(try catalogue.read { try $0.fetchCount(dated) } == catalogue.records(dated).count)
    }

    @Test("Ranked words: the first two tiers, then the third's first keys, read product_by_name_key in order and check each row's match; only the third's later keys read the matches' rows")
    func rankedWords() throws {
        for text in ["c", "ip mi", "ipad"] {
            let plan = try plan(CatalogueSearch.products(matching: text, mode: .words))
            // The bound's subqueries walk the index as a covering index; the arms read rows.
            let ordered = plan.filter { $0.hasPrefix("SEARCH product USING INDEX product_by_name_key") }
            // The NULL keys' arm scans nothing: name_key is NOT NULL, so SQLite knows it empty.
            #expect(ordered.count == 3, "\(text): \(plan.joined(separator: "\n"))")
            #expect(plan.contains { $0.contains("product_by_name_key (name_key<?)") }, "\(text): the bounded ordered read: \(plan)")
            #expect(plan.filter { $0.contains("TEMP B-TREE") }.count == 1, "\(text): only the last arm sorts: \(plan)")
            if text == "ipad" {
                // A longer word's matches are collected by catalogue_in_matches for the ordered
                // reads; only the last arm, which reads the matches' rows by id, lists them.
                let sql = try CatalogueSearch.products(matching: text, mode: .words).selectSQL().sql
                #expect(sql.contains("catalogue_in_matches(product.id, 'product_fts', ?, (SELECT collected FROM catalogue_match_count))"), "\(sql)")
                #expect(plan.filter { $0.contains("LIST SUBQUERY") }.count == 1, "\(text): \(plan)")
            } else {
                #expect(plan.contains { $0.contains("CORRELATED SCALAR SUBQUERY") }, "\(text): \(plan)")
            }
        }
    }

    /// A catalogue of 21,000 names before the word's ("Aaa filler N"), 50,010 "Bee <word> N"
    /// and 30 "Zebra <word> N"; and the names holding `word`, in display order.
    func denseCatalogue(word: String) throws -> (Catalogue, [String]) {
        let catalogue = try emptyCatalogue()
        let before = (0..<(OrderedReadBound.limit + 1_000)).map { Product(name: "Aaa filler \($0)", type: "other") }
        let dense = (0..<(OrderedReadBound.denseMatches + 10)).map { Product(name: "Bee \(word) \($0)", type: "kitchen") }
        let late = (0..<30).map { Product(name: "Zebra \(word) \($0)", type: "kitchen") }
        try catalogue.write { db in _ = try db.upsert(contentsOf: late + dense + before) }
        let expected = (dense + late).map(\.name).sorted { Folding.fold($0).utf8.lexicographicallyPrecedes(Folding.fold($1).utf8) }
        return (catalogue, expected)
    }

    /// Every match of `request` in display order (`expected`), and its 50-row pages inside the
    /// dense matches and across into the late ones equal the slices of that list.
    func expectPagesInDisplayOrder(
        _ request: FetchRequest<Product>, in catalogue: Catalogue, expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try catalogue.fetch(request).map(\.name) == expected, sourceLocation: sourceLocation)
        for offset in [0, 25_000, expected.count - 50] {
            var page = request
            page.fetchLimit = 50
            page.fetchOffset = offset
            #expect(try catalogue.fetch(page).map(\.name) == Array(expected.dropFirst(offset).prefix(50)), "at \(offset)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("Common words: the third tier's bound moves to the dense bound when the matches are many; its pages keep display order")
    func denseThirdTier() throws {
        let (catalogue, expected) = try denseCatalogue(word: "lamp")
        let request = CatalogueSearch.products(matching: "lamp", mode: .words)
        let select = try request.selectSQL(in: SQLiteDialect())
        // The matches are collected and counted once, and the bound chosen by the count once, in
        // materialized common table expressions: the within and beyond parts of tier 3 both
        // compare with the bound, and the within part reads only when the count is not 0.
        let count = "WITH catalogue_match_count_set AS MATERIALIZED (SELECT catalogue_collect_matches('product_fts', ?) "
            + "AS collected), catalogue_match_count AS MATERIALIZED (SELECT catalogue_collected_count(collected, "
            + "'product_fts', ?) AS matches, collected FROM catalogue_match_count_set), catalogue_bound AS MATERIALIZED "
            + "(SELECT coalesce((SELECT product.name_key FROM product"
        let density = "OFFSET CASE WHEN (SELECT matches FROM catalogue_match_count) >= ? THEN ? ELSE ? END"
        #expect(select.sql.hasPrefix(count), "\(select.sql)")
        #expect(select.sql.components(separatedBy: density).count == 2, "\(select.sql)")
        #expect(select.sql.components(separatedBy: "LIMIT CASE WHEN (SELECT matches FROM catalogue_match_count) > 0 THEN ? ELSE 0 END").count == 2)
        #expect(select.sql.components(separatedBy: "product.name_key <= (SELECT bound FROM catalogue_bound)").count == 2)
        #expect(select.sql.components(separatedBy: "product.name_key > (SELECT bound FROM catalogue_bound)").count == 2)
        #expect(select.arguments.contains(.integer(Int64(OrderedReadBound.denseLimit - 1))))
        try expectPagesInDisplayOrder(request, in: catalogue, expected: expected)
    }

    @Test("Typos of a common word: the typo tier's bound is counted with the typos, moves to the dense bound, and its pages keep display order")
    func denseTypoTier() throws {
        let (catalogue, expected) = try denseCatalogue(word: "kettle")
        let request = CatalogueSearch.products(matching: "kettel", mode: .fuzzy)
        let resolved = try catalogue.read { db in try db.resolvingTypos(in: request) }
        let select = try resolved.selectSQL(in: SQLiteDialect())
        // Two counts and two bounds: the exact matches' ("kettel"*: none), which the exact tier's
        // ordered read also checks before it starts, and the typo tier's, whose count includes
        // "kettle".
        let matchCount = "AS MATERIALIZED (SELECT catalogue_collected_count(collected, 'product_fts', ?) AS matches, collected FROM "
        #expect(select.sql.hasPrefix("WITH catalogue_match_count_set AS MATERIALIZED (SELECT "), "\(select.sql)")
        #expect(select.sql.contains(" AS bound), catalogue_typo_match_count_set AS MATERIALIZED (SELECT "), "\(select.sql)")
        #expect(select.sql.contains(" FROM catalogue_typo_match_count_set), catalogue_typo_bound AS MATERIALIZED (SELECT "), "\(select.sql)")
        #expect(select.sql.components(separatedBy: matchCount).count == 3)
        // The typo tiers' checks look up the typo count's matches, the exact tiers' the exact count's.
        #expect(select.sql.contains("'product_fts', ?, (SELECT collected FROM catalogue_typo_match_count))"), "\(select.sql)")
        #expect(select.sql.components(separatedBy: "OFFSET CASE WHEN (SELECT matches FROM catalogue_typo_match_count) >= ?").count == 2)
        #expect(select.sql.components(separatedBy: "LIMIT CASE WHEN (SELECT matches FROM catalogue_match_count) > 0 THEN ? ELSE 0 END").count == 2)
        #expect(select.sql.components(separatedBy: "product.name_key <= (SELECT bound FROM catalogue_typo_bound)").count == 2)
        #expect(select.sql.components(separatedBy: "product.name_key > (SELECT bound FROM catalogue_typo_bound)").count == 2)
        #expect(select.arguments.prefix(11) == [
            .text("\"kettel\"*"), .text("\"kettel\"*"), .integer(50_000), .integer(219_999), .integer(19_999),
            .text("(\"kettel\"* OR \"kettle\")"), .text("(\"kettel\"* OR \"kettle\")"), .integer(50_000),
            .integer(219_999), .integer(19_999), .text("kettel"),
        ])
        try expectPagesInDisplayOrder(request, in: catalogue, expected: expected)
    }

    /// The names on the first page (`limit` rows) of a product search, and the virtual machine
    /// steps its statement took: the work done, whatever the machine's speed.
    static func productPage(
        _ text: String, scope: ProductScope = .all, mode: MatchMode, limit: Int, in catalogue: Catalogue
    ) throws -> (names: [String], steps: Int) {
        var request = CatalogueSearch.products(matching: text, scope: scope, mode: mode)
        request.fetchLimit = limit
        return try catalogue.database.read { db in
            let sql = try db.resolvingTypos(in: request).selectSQL(in: SQLiteDialect())
            let statement = try db.makeStatement(sql.sql)
            try statement.bind(StatementArguments(sql.arguments))
            var names: [String] = []
            while try statement.step() { names.append(statement.string(at: 1)) }
            return (names, statement.virtualMachineSteps)
        }
    }

    @Test("A words count in a product type reads the full-text matches and looks each row up, not the type's rows one by one")
    func wordsCountInAType() throws {
        let catalogue = try emptyCatalogue()
        let kitchen = (0..<20_000).map { Product(name: "Aaa filler \($0)", type: "kitchen") }
        let garden = (0..<30).map { Product(name: "Watering can \($0)", type: "garden") }
        try catalogue.write { db in _ = try db.upsert(contentsOf: kitchen + garden) }
        for (text, expected) in [("watering", 0), ("aaa", 1_001), ("filler 19999", 1)] {
            let request = CatalogueSearch.products(matching: text, scope: .type("kitchen"), mode: .words)
            for sql in [try request.countSQL(in: SQLiteDialect(), stoppingAfter: 1_001), try request.countSQL(in: SQLiteDialect())] {
                let (plan, count, steps) = try catalogue.database.read { db in
                    let plan = try db.fetchAll("EXPLAIN QUERY PLAN " + sql.sql, StatementArguments(sql.arguments)) {
                        try $0.decode(String.self, named: "detail")
                    }
                    let statement = try db.makeStatement(sql.sql)
                    try statement.bind(StatementArguments(sql.arguments))
                    _ = try statement.step()
                    return (plan, Int(statement.int64(at: 0)), statement.virtualMachineSteps)
                }
                let loops = plan.filter { $0.hasPrefix("SCAN ") || $0.hasPrefix("SEARCH ") }
                #expect(loops.first?.hasPrefix("SCAN product_fts VIRTUAL TABLE") == true, "\(plan)")
                #expect(!plan.contains { $0.contains("product_by_type_and_name_key") }, "\(plan)")
                #expect(count == (text == "aaa" && !sql.sql.contains("LIMIT") ? 20_000 : expected), "\(text): \(sql.sql)")
                // A word no kitchen product has: its 30 matches, where the kitchen's 20,000 rows
                // asked FTS5 one by one took 220,019 steps.
                if text == "watering" { #expect(steps < 2_000, "\(steps) steps") }
            }
        }
    }

    @Test("A text without exact matches reads no key for the exact tiers: a word that matches nothing, and the exact tiers of a typo")
    func exactTiersSkippedWithoutMatches() throws {
        let catalogue = try emptyCatalogue()
        let fillers = (0..<(OrderedReadBound.limit + 1_000)).map { Product(name: "Aaa filler \($0)", type: "other") }
        let kettles = (0..<100).map { Product(name: "Zebra kettle \($0)", type: "kitchen") }
        try catalogue.write { db in _ = try db.upsert(contentsOf: fillers + kettles) }
        func page(_ text: String, _ mode: MatchMode) throws -> (names: [String], steps: Int) {
            try Self.productPage(text, mode: mode, limit: 50, in: catalogue)
        }
        let expected = kettles.map(\.name).sorted { Folding.fold($0).utf8.lexicographicallyPrecedes(Folding.fold($1).utf8) }.prefix(50)
        // Without the check before the read, the bound and the read up to it visit 20,000 keys.
        let nothing = try page("zzqx", .words)
        #expect(nothing.names.isEmpty)
        #expect(nothing.steps < 2_000, "\(nothing.steps) steps")
        // The exact word reads the first 20,000 keys in order (its matches lie beyond them); the
        // typo reads them once, for its typo tier, not a second time for its exact tiers (it
        // took 625,682 steps so, against 265,000 for the exact word).
        let exact = try page("kettle", .words)
        let typo = try page("kettel", .fuzzy)
        #expect(exact.names[...] == expected)
        #expect(typo.names[...] == expected)
        #expect(exact.steps > 20_000, "\(exact.steps) steps")
        #expect(typo.steps < exact.steps * 2, "\(typo.steps) steps, against \(exact.steps) for the exact word")
    }

    @Test("A typo's tier of names beginning with the word meant checks each row it reads, instead of collecting every match first")
    func typoStartCheckedPerRow() throws {
        let catalogue = try emptyCatalogue()
        let kettles = (0..<5_000).map { Product(name: "Kettle \($0)", type: "kitchen") }
        let others = (0..<200).map { Product(name: "Copper kettle \($0)", type: "kitchen") }
        try catalogue.write { db in _ = try db.upsert(contentsOf: kettles + others) }
        func page(_ text: String, scope: ProductScope = .all) throws -> (names: [String], steps: Int) {
            try Self.productPage(text, scope: scope, mode: .fuzzy, limit: 20, in: catalogue)
        }
        func folded(_ names: [String]) -> [String] {
            names.sorted { Folding.fold($0).utf8.lexicographicallyPrecedes(Folding.fold($1).utf8) }
        }
        // "kettel" begins no indexed word, and means "kettle": the page is the first 20 names
        // beginning with "kettle", read in order and checked one by one: 1,164 steps. Collecting
        // the 5,200 matches first took 21,771.
        let typo = try page("kettel")
        #expect(typo.names == Array(folded(kettles.map(\.name)).prefix(20)))
        #expect(typo.steps < 5_000, "\(typo.steps) steps")
        // With a second word, or a product type, the names read may rarely match: the matches
        // are collected, and the page is the same as ever.
        let twoWords = try page("kettel 4999")
        #expect(twoWords.names == ["Kettle 4999"])
        let ofType = try page("kettel", scope: .type("kitchen"))
        #expect(ofType.names == typo.names)
        #expect(ofType.steps > 10_000, "\(ofType.steps) steps: collected")
        #expect(try page("kettel", scope: .type("garden")).names.isEmpty)
    }

    @Test("Fuzzy: the exact tiers, then one ordered read of the key index per word meant, then the bounded read; only the last arms sort")
    func fuzzyWords() throws {
        let plan = try plan(CatalogueSearch.products(matching: "ipdo touhc", mode: .fuzzy))
        let ordered = plan.filter { $0.hasPrefix("SEARCH product USING INDEX product_by_name_key") }
        // Exact: 2 tiers and the third's first keys; "ipdo" (4 characters) has no typo to mean
        // another word, so no tier 4; with typos: the first keys.
        #expect(ordered.count == 4, "\(plan.joined(separator: "\n"))")
        #expect(plan.filter { $0.contains("TEMP B-TREE") }.count == 2, "\(plan)")
        let withStart = try self.plan(CatalogueSearch.products(matching: "toucj", mode: .fuzzy))
        let starts = withStart.filter { $0.hasPrefix("SEARCH product USING INDEX product_by_name_key") }
        #expect(starts.count == 5, "one more ordered read, for \"touch\": \(withStart.joined(separator: "\n"))")
    }
}
