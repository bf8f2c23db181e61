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

    /// EXPLAIN of `request`'s SQL with its values bound (the plan made for these values).
    func customPlan(_ request: FetchRequest<Product>) throws -> [String] {
        let catalogue = try Self.catalogue.get()
        let select = try request.selectSQL(in: PostgresDialect())
        return try catalogue.read { db in
            var lines: [String] = []
            try db.forEachRow(SQLFragment("EXPLAIN " + select.sql, select.arguments)) { lines.append(try $0.decodeText(at: 0)) }
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
