import CatalogueKit
import Testing

/// A page of ranked words with many matches reads its last tier in name order
/// (`SQLiteDialect.readsLastTierInOrder`), and gives exactly the rows of the sorted plan.
@Suite("Ranked words: the last tier's plan")
struct RankedWordsPlanningTests {
    @Test("More matches than the page limit: the last tier reads product_by_name_key in order; fewer: it sorts; the rows agree")
    func lastTier() throws {
        let catalogue = try emptyCatalogue()
        let many = SQLiteTrigramIndex.pageCandidateLimit + 25
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<many).map { Product(name: "Desk lamp \($0)", type: "light") })
            try db.upsert(contentsOf: ["Lamp", "Lampshade", "Amber lamp"].map { Product(name: $0, type: "light") })
        }
        for (text, expectsOrderedScan) in [("lamp", true), ("lamp 12", false), ("lampsh", false)] {
            for offset in [0, 3, 60] {
                var request = CatalogueSearch.products(matching: text, mode: .words)
                request.fetchLimit = 50
                request.fetchOffset = offset
                let (planned, sorted, readsInOrder, plan) = try catalogue.database.read { db in
                    let dialect = try db.plannedDialect(for: request)
                    let plain = try request.select(Product.schema.qualifiedID, in: SQLiteDialect())
                    return (
                        try db.fetchIDs(request),
                        try db.fetchAll(plain.sql, StatementArguments(plain.arguments)) { try $0.decode(Int64.self, at: 0) },
                        dialect.readsLastTierInOrder,
                        try db.explainQueryPlan(request))
                }
                #expect(planned == sorted, "\(text), offset \(offset)")
                #expect(offset > 0 || !planned.isEmpty, "\(text)")
                #expect(readsInOrder == expectsOrderedScan, "\(text)")
                #expect(plan.contains { $0.contains("TEMP B-TREE") } != expectsOrderedScan, "\(text): \(plan)")
            }
        }
        // Every match (no page): sorted, whatever their number.
        let all = CatalogueSearch.products(matching: "lamp", mode: .words)
        #expect(try catalogue.database.read { try $0.plannedDialect(for: all).readsLastTierInOrder } == false)
        #expect(try catalogue.fetchIDs(all).count == many + 3)
    }
}
