#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import PostgresTestSupport
import Testing

/// A prefix page on PostgreSQL is a range scan of the `COLLATE "C"` key index, in display order:
/// no sort, with the values bound (custom plan) and in a generic plan (what a cached prepared
/// statement runs), where `LIKE $1` would lose the index.
@Suite("PostgreSQL query plans", .requiresPostgres, .serialized)
struct PostgresQueryPlanTests {
    /// 20,000 products over every initial letter, imported by COPY, and analyzed.
    static let catalogue: Result<Catalogue, any Error> = Result {
        let database = try PostgresTestServer.shared().createDatabase(prefix: "plans")
        var options = PostgresEngine.Options()
        options.seed = false
        let catalogue = try Catalogue.connect(to: database.url, options: options)
        let words = ["Anvil", "Brass", "Crème", "Delta", "Éclair", "Frame", "Gauge", "Helix", "Ivory", "Jalapeño", "Kettle", "Lamp", "Mug"]
        var csv = "name,type,year,price\n"
        for index in 0..<20_000 {
            let first = words[index % words.count]
            let second = words[(index / words.count) % words.count].lowercased()
            csv += "\(first) \(second) \(index),\(["kitchen", "device", "garden"][index % 3]),\(1990 + index % 30),\(index % 500)\n"
        }
        // A word whose rows were imported together, at the table's end.
        for index in 0..<200 {
            csv += "Zircon \(words[index % words.count].lowercased()) \(index),garden,2001,\(index)\n"
        }
        try catalogue.importRecords(Product.self, from: ImportInput(text: csv, name: "plans.csv"), options: ImportOptions(format: .csv))
        try database.psql("VACUUM ANALYZE product")
        return catalogue
    }

    /// The 50-row page of products whose folded name starts with `text`.
    static func page(_ text: String, scope: ProductScope = .all) -> FetchRequest<Product> {
        var request = CatalogueSearch.products(matching: text, scope: scope)
        request.fetchLimit = 50
        return request
    }

    /// EXPLAIN of `request`'s SQL with its values bound (the plan made for these values); with
    /// `analyze`, EXPLAIN ANALYZE: the statement runs, and the plan says what ran.
    func customPlan(_ request: FetchRequest<Product>, analyze: Bool = false) throws -> [String] {
        let catalogue = try Self.catalogue.get()
        let select = try request.selectSQL(in: PostgresDialect())
        return try catalogue.read { db in
            var lines: [String] = []
            try db.forEachRow(SQLFragment((analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + select.sql, select.arguments)) {
                lines.append(try $0.decodeText(at: 0))
            }
            return lines
        }
    }

    /// EXPLAIN EXECUTE of `request`'s SQL prepared with `plan_cache_mode = force_generic_plan`:
    /// the plan made without knowing the values.
    func genericPlan(_ request: FetchRequest<Product>, parameterTypes: String, values: String) throws -> [String] {
        let catalogue = try Self.catalogue.get()
        let select = try request.selectSQL(in: PostgresDialect())
        return try catalogue.read { db in
            try db.forEachRow(SQLFragment("SET LOCAL plan_cache_mode = force_generic_plan")) { _ in }
            try db.forEachRow(SQLFragment("PREPARE catalogue_page(\(parameterTypes)) AS " + select.sql)) { _ in }
            defer { try? db.forEachRow(SQLFragment("DEALLOCATE catalogue_page")) { _ in } }
            var lines: [String] = []
            try db.forEachRow(SQLFragment("EXPLAIN EXECUTE catalogue_page(\(values))")) { lines.append(try $0.decodeText(at: 0)) }
            return lines
        }
    }

    func expectRangeScanInOrder(_ plan: [String], indexes: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = plan.joined(separator: "\n")
        #expect(plan.contains { line in indexes.contains { line.contains("Index Scan using \($0) on product") } }, "\(text)",
                sourceLocation: sourceLocation)
        #expect(plan.contains { $0.contains("Index Cond: ") && $0.contains("(name_key >= ") && $0.contains("(name_key < ") }, "\(text)",
                sourceLocation: sourceLocation)
        #expect(!plan.contains { $0.contains("Sort") }, "a sort in \(text)", sourceLocation: sourceLocation)
        #expect(!plan.contains { $0.contains("Seq Scan") || $0.contains("Bitmap") }, "\(text)", sourceLocation: sourceLocation)
    }

    @Test("The prefix page: an Index Scan on product_by_name_key within the bound range, no Sort (values bound)")
    func prefixPageCustomPlan() throws {
        let plan = try customPlan(Self.page("cre"))
        expectRangeScanInOrder(plan, indexes: ["product_by_name_key"])
        // Two letters and one: still the range scan, still no sort.
        expectRangeScanInOrder(try customPlan(Self.page("c")), indexes: ["product_by_name_key"])
        // The page read is the display order.
        let names = try Self.catalogue.get().fetch(Self.page("cre")).map(\.name)
        #expect(names.count == 50)
        #expect(names.map { Folding.fold($0) } == names.map { Folding.fold($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test("The prefix page in a generic plan (a cached prepared statement): the same range scan, no Sort")
    func prefixPageGenericPlan() throws {
        let plan = try genericPlan(Self.page("cre"), parameterTypes: "text, text, bigint, bigint", values: "'cre', 'crf', 50, 0")
        expectRangeScanInOrder(plan, indexes: ["product_by_name_key"])
        #expect(plan.contains { $0.contains("$1") && $0.contains("$2") }, "not a generic plan: \(plan)")
    }

    /// At this size the planner picks the index for the bare query too; at 1,000,000 rows it
    /// scanned the table for the first matches (BENCHMARKS.md: `velvet`, about 90 ms), which the
    /// materialized query (planned for every match) prevents.
    @Test("A words page in no order: a materialized query through the GIN index, its rows clustered at the table's end")
    func unorderedWordsPage() throws {
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "zirc"))
        let request = FetchRequest<Product>(predicate: .fullText(pattern), sortDescriptors: [], fetchLimit: 50)
        let plan = try customPlan(request)
        let text = plan.joined(separator: "\n")
        #expect(plan.contains { $0.contains("Bitmap Index Scan on product_words") }, "\(text)")
        #expect(plan.contains { $0.contains("CTE Scan on catalogue_matches") }, "\(text)")
        #expect(!plan.contains { $0.contains("Seq Scan") || $0.contains("Sort") }, "\(text)")
        let catalogue = try Self.catalogue.get()
        let names = try catalogue.fetch(request).map(\.name)
        #expect(names.count == 50)
        #expect(names.allSatisfy { $0.hasPrefix("Zircon ") }, "\(names)")
        var all = request
        all.fetchLimit = nil
        #expect(try Set(catalogue.fetch(all).map(\.name)).count == 200)
    }

    @Test("A CONTAINS page: a common text fills it from the first keys in order; a text whose matches lie beyond them reads the trigram index")
    func containsPageParts() throws {
        let catalogue = try Self.catalogue.get()
        // `zirc`: every match lies after the first 20,000 keys, which the ordered read checks.
        let rare = Self.contains("zirc")
        let rarePlan = try customPlan(rare, analyze: true)
        #expect(rarePlan.contains { $0.contains("Bitmap Index Scan on product_name_key_trigrams") && !$0.contains("never executed") },
                "\(rarePlan.joined(separator: "\n"))")
        // `lamp`: the ordered read fills the page; the part beyond never runs.
        let commonPlan = try customPlan(Self.contains("lamp"), analyze: true)
        #expect(commonPlan.contains { $0.contains("CTE Scan on catalogue_matches") && $0.contains("never executed") },
                "\(commonPlan.joined(separator: "\n"))")
        // Either way, each page is the slice of every match in display order.
        for text in ["zirc", "lamp", "mug 1", "on m", "zzq"] {
            var every = Self.contains(text)
            every.fetchLimit = nil
            let all = try catalogue.fetch(every).map(\.id)
            for offset in [0, 30, 170] {
                var page = Self.contains(text)
                page.fetchOffset = offset
                let expected = Array(all.dropFirst(offset).prefix(50))
                #expect(try catalogue.fetch(page).map(\.id) == expected, "\(text) at \(offset)")
            }
        }
    }

    @Test("A CONTAINS of one or two characters: its matches beyond the first keys, and its count, read the short substring index")
    func shortContainsThroughTheirIndex() throws {
        let catalogue = try Self.catalogue.get()
        // `zi`: only in the 200 Zircon rows, after the first 20,000 keys.
        let rarePlan = try customPlan(Self.contains("zi"), analyze: true)
        #expect(rarePlan.contains { $0.contains("Bitmap Index Scan on product_name_key_short_substrings") && !$0.contains("never executed") },
                "\(rarePlan.joined(separator: "\n"))")
        #expect(!rarePlan.contains { $0.contains("_trigrams") }, "\(rarePlan.joined(separator: "\n"))")
        let count = try FetchRequest<Product>(predicate: CatalogueSearch.products(matching: "zi", mode: .contains).predicate)
            .countSQL(in: PostgresDialect(), stoppingAfter: 1_000)
        let countPlan = try catalogue.read { db in
            var lines: [String] = []
            try db.forEachRow(SQLFragment("EXPLAIN " + count.sql, count.arguments)) { lines.append(try $0.decodeText(at: 0)) }
            return lines
        }
        #expect(countPlan.contains { $0.contains("Bitmap Index Scan on product_name_key_short_substrings") },
                "\(countPlan.joined(separator: "\n"))")
        #expect(try catalogue.fetchCount(CatalogueSearch.products(matching: "zi", mode: .contains)) == 200)
        // `m`: the ordered read fills the page; the part beyond never runs.
        let commonPlan = try customPlan(Self.contains("m"), analyze: true)
        #expect(commonPlan.contains { $0.contains("CTE Scan on catalogue_matches") && $0.contains("never executed") },
                "\(commonPlan.joined(separator: "\n"))")
        // Each page is the slice of every match in display order, and every match is what the
        // text's LIKE finds.
        for text in ["zi", "m", "z", "É", "19", "q", "%"] {
            var every = Self.contains(text)
            every.fetchLimit = nil
            let all = try catalogue.fetch(every).map(\.id)
            let folded = Folding.fold(text)
            let like = try catalogue.read { db in
                var ids: [Int64?] = []
                try db.forEachRow(SQLFragment(
                    "SELECT id FROM product WHERE strpos(name_key, $1) > 0 ORDER BY name_key, name, id", [.text(folded)])) {
                    ids.append(try $0.decodeInteger(at: 0))
                }
                return ids
            }
            #expect(all.count == like.count && all == like, "\(text): \(all.count) rows, strpos finds \(like.count)")
            for offset in [0, 30, 170] {
                var page = Self.contains(text)
                page.fetchOffset = offset
                #expect(try catalogue.fetch(page).map(\.id) == Array(all.dropFirst(offset).prefix(50)), "\(text) at \(offset)")
            }
        }
    }

    /// The 50-row page of products whose folded name contains `text`.
    static func contains(_ text: String) -> FetchRequest<Product> {
        var request = CatalogueSearch.products(matching: text, mode: .contains)
        request.fetchLimit = 50
        return request
    }

    @Test("A prefix page of one type: a range scan of a key index in display order (the planner picks which), no Sort")
    func typedPrefixPage() throws {
        // A third of the rows are kitchen: reading product_by_name_key and filtering by type
        // costs about as much as product_by_type_and_name_key; either gives the order.
        let plan = try customPlan(Self.page("cre", scope: .type("Kitchen")))
        expectRangeScanInOrder(plan, indexes: ["product_by_name_key", "product_by_type_and_name_key"])
        #expect(plan.contains { $0.contains("type_key = ") }, "\(plan)")
    }
}
#endif
