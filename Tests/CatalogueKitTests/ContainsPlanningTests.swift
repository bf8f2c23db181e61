import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// `CONTAINS[cd]` through the trigram index (`Connection.plannedDialect(for:)`): the planner
/// takes the index for a selective text and the ordered scan for a common one, and either way
/// the rows, their order and the counts are exactly what the scan alone gives.
@Suite("CONTAINS through the trigram index")
struct ContainsPlanningTests {
    /// Ids, in order, and the exact and capped counts of `request`, as the catalogue plans it
    /// and as the plain scan (no trigram lookup) gives them; and whether the plan read the index.
    struct Outcome: Equatable {
        let ids: [Int64]
        let count: Int
        let capped: Int
    }

    static func outcomes(
        _ request: FetchRequest<Product>, in catalogue: Catalogue
    ) throws -> (planned: Outcome, scanned: Outcome, usedIndex: Bool) {
        try catalogue.database.read { db in
            let planned = Outcome(
                ids: try db.fetchIDs(request), count: try db.fetchCount(request), capped: try db.fetchCount(request, stoppingAfter: 7))
            let plain = SQLiteDialect()
            let select = try request.select(Product.schema.qualifiedID, in: plain)
            let count = try request.countSQL(in: plain)
            let capped = try request.countSQL(in: plain, stoppingAfter: 7)
            let scanned = Outcome(
                ids: try db.fetchAll(select.sql, StatementArguments(select.arguments)) { try $0.decode(Int64.self, at: 0) },
                count: try db.scalar(count.sql, StatementArguments(count.arguments)) ?? -1,
                capped: try db.scalar(capped.sql, StatementArguments(capped.arguments)) ?? -1)
            let usedIndex = try request.selectSQL(in: db.plannedDialect(for: request)).sql.contains("product_name_key_trigram")
            return (planned, scanned, usedIndex)
        }
    }

    @Test("Random names and texts: the planned results equal the scan's, and every text of 3+ characters reads the index")
    func plannedEqualsScan() throws {
        let seed = SearchPropertyTests.seed ^ 0x7219_4A11
        var generator = SplitMix64(seed: seed)
        let (catalogue, products) = try SearchPropertyTests.makeCatalogue(using: &generator)
        var indexed = 0
        for text in SearchPropertyTests.needles(from: products, using: &generator) {
            for limit in [nil, 5] {
                var request = CatalogueSearch.products(matching: text, mode: .contains)
                request.fetchLimit = limit
                request.fetchOffset = limit == nil ? 0 : 2
                let (planned, scanned, usedIndex) = try Self.outcomes(request, in: catalogue)
                #expect(planned == scanned, "seed \(seed): contains \(String(reflecting: text)), limit \(String(describing: limit))")
                let key = Folding.fold(CatalogueSearch.normalizedText(text))
                #expect(usedIndex == (key.unicodeScalars.count >= 3 && !key.unicodeScalars.contains("\0")),
                        "seed \(seed): \(String(reflecting: text))")
                if usedIndex { indexed += 1 }
            }
        }
        #expect(indexed > 100, "seed \(seed): too few texts went through the index")
    }

    @Test("Terms and NOT: every CONTAINS of a predicate is planned, and the rows stay the scan's")
    func nestedComparisons() throws {
        let catalogue = try seededCatalogue()
        let requests: [FetchRequest<Product>] = [
            CatalogueSearch.products(matching: "ipho 3g", mode: .terms),
            CatalogueSearch.products(matching: "hone", mode: .terms),
            FetchRequest(predicate: .not(.contains("name", "pad", options: .caseAndDiacriticInsensitive)), sortDescriptors: FetchSortDescriptor.byName),
            FetchRequest(predicate: .contains("name", "PHONE", options: .caseAndDiacriticInsensitive)
                || .contains("name", "brûl", options: .caseAndDiacriticInsensitive), sortDescriptors: FetchSortDescriptor.byName),
        ]
        for request in requests {
            let (planned, scanned, usedIndex) = try Self.outcomes(request, in: catalogue)
            #expect(planned == scanned, "\(request.predicate)")
            #expect(!planned.ids.isEmpty, "\(request.predicate)")
            #expect(usedIndex, "\(request.predicate)")
        }
    }

    @Test("Both sides of the candidate limits: a common text scans the name index in order, a selective one reads the trigram index")
    func bothSidesOfTheLimits() throws {
        let catalogue = try emptyCatalogue()
        let common = SQLiteTrigramIndex.pageCandidateLimit + 25
        try catalogue.write { db in
            try db.upsert(contentsOf: (0..<common).map { Product(name: "Lamp \($0)", type: "light") })
            try db.upsert(contentsOf: ["Crème brûlée torch", "Brûleur", "Table"].map { Product(name: $0, type: "kitchen") })
        }
        for text in ["lamp", "amp 1", "Lamp 9", "lamp 1234", "BRÛL", "zzq", "ûlée t"] {
            var request = CatalogueSearch.products(matching: text, mode: .contains)
            request.fetchLimit = 50
            let (planned, scanned, _) = try Self.outcomes(request, in: catalogue)
            #expect(planned == scanned, "\(text)")
            let candidates = try catalogue.database.read { db in
                try db.scalar("SELECT count(*) FROM product_name_key_trigram WHERE product_name_key_trigram MATCH ?",
                              [SQLiteTrigramIndex.matchPattern(for: Folding.fold(text))!]) as Int? ?? -1
            }
            for work in [SQLiteTrigramIndex.Work.page, .everyMatch, .cappedCount] {
                let sql = try catalogue.database.read { db in try request.selectSQL(in: db.plannedDialect(for: request, work: work)).sql }
                let expected = SQLiteTrigramIndex.candidateLimit(for: work).map { candidates <= $0 } ?? true
                #expect(sql.contains("product_name_key_trigram") == expected, "\(text), \(work): \(candidates) candidates")
            }
            let plan = try catalogue.database.read { try $0.explainQueryPlan(request) }
            if candidates <= SQLiteTrigramIndex.pageCandidateLimit {
                #expect(plan.contains { $0.contains("product_name_key_trigram") }, "\(text): \(plan)")
            } else {
                #expect(plan.contains { $0.contains("SCAN product USING") && $0.contains("product_by_name_key") }, "\(text): \(plan)")
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(text): \(plan)")
            }
        }
        // "lamp" has more candidates than a page reads through the index, fewer than a count does.
        let lamp = CatalogueSearch.products(matching: "lamp", mode: .contains)
        let pageSQL = try catalogue.database.read { db in try lamp.selectSQL(in: db.plannedDialect(for: lamp, work: .page)).sql }
        let countSQL = try catalogue.database.read { db in try lamp.selectSQL(in: db.plannedDialect(for: lamp, work: .everyMatch)).sql }
        #expect(!pageSQL.contains("trigram") && countSQL.contains("trigram"))
        #expect(try Self.outcomes(lamp, in: catalogue).planned.count == common)
        #expect(try Self.outcomes(CatalogueSearch.products(matching: "lamp 1234", mode: .contains), in: catalogue).planned.ids.count == 11)  // 1234, 12340…12349
    }

    @Test("The index follows every write: CatalogueKit's, the shell-style writer's whose keys are folded later, deletes")
    func indexFollowsWrites() throws {
        let catalogue = try emptyCatalogue()
        func found(_ text: String) throws -> [String] {
            try catalogue.records(CatalogueSearch.products(matching: text, mode: .contains)).map(\.name)
        }
        let saved = try catalogue.write { db in try db.insert(Product(name: "Crème brûlée torch", type: "kitchen")) }
        #expect(try found("brûl") == ["Crème brûlée torch"])
        try catalogue.write { db in
            var renamed = saved
            renamed.name = "Blowtorch"
            try db.update(renamed)
        }
        #expect(try found("brûl").isEmpty)
        #expect(try found("wtor") == ["Blowtorch"])
        // Another tool's INSERT without keys: a provisional key, then the folded one.
        try catalogue.database.write { db in
            try db.execute("INSERT INTO product (name, type) VALUES ('ÉCLAIR Pan', 'kitchen')")
        }
        #expect(try found("clair p") == ["ÉCLAIR Pan"])  // the provisional key, lower(): "Éclair pan"
        try catalogue.write { _ in }  // the catalogue's next write folds it
        #expect(try found("eclair p") == ["ÉCLAIR Pan"])
        try catalogue.write { db in _ = try db.delete(Product.self, id: saved.id!) }
        #expect(try found("wtor").isEmpty)
        try catalogue.database.write { db in
            try db.execute("INSERT INTO product_name_key_trigram (product_name_key_trigram) VALUES ('integrity-check')")
        }
    }

    @Test("An app's record type gets the trigram index from SQLiteSearchSupport, and CONTAINS reads it")
    func appRecordType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("streets.sqlite"), appMigrations: [Street.migration])
        try catalogue.write { db in
            try db.upsert(contentsOf: ["Rue de Rivoli", "Rua Augusta", "Calle de Alcalá", "Ålgatan"].map { Street(name: $0) })
        }
        let request = FetchRequest<Street>(predicate: .contains("name", "ALCAL", options: .caseAndDiacriticInsensitive), sortDescriptors: .byName)
        #expect(try catalogue.fetch(request).map(\.name) == ["Calle de Alcalá"])
        let plan = try catalogue.database.read { try $0.explainQueryPlan(request) }
        #expect(plan.contains { $0.contains("street_name_key_trigram") }, "\(plan)")
        try catalogue.database.write { db in
            try db.execute("INSERT INTO street_name_key_trigram (street_name_key_trigram) VALUES ('integrity-check')")
        }
    }

    @Test("The match pattern covers the text with quoted trigrams")
    func matchPattern() {
        #expect(SQLiteTrigramIndex.matchPattern(for: "lamp 20") == "\"lam\" \"p 2\" \" 20\"")
        #expect(SQLiteTrigramIndex.matchPattern(for: "abcdef") == "\"abc\" \"def\"")
        #expect(SQLiteTrigramIndex.matchPattern(for: "a\"b\"") == "\"a\"\"b\" \"\"\"b\"\"\"")
        #expect(SQLiteTrigramIndex.matchPattern(for: "ab") == nil)
        #expect(SQLiteTrigramIndex.matchPattern(for: "ab\0c") == nil)
        #expect(SQLiteTrigramIndex.matchPattern(for: "aaaaaa") == "\"aaa\"")
    }
}

/// An app's record type whose name is substring-indexed.
struct Street: Record {
    static let schema = RecordSchema(
        table: "street", columns: ["name"], naturalKey: ["name"], foldedColumns: ["name": "name_key"],
        substringIndexedColumns: ["name_key"])
    static let migration = Migration(
        identifier: "0001_street", sql: "CREATE TABLE street (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n" + SQLiteSearchSupport.sql(for: schema))

    var id: Int64?
    var name: String

    init(id: Int64? = nil, name: String) {
        self.id = id
        self.name = name
    }

    init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    var databaseValues: [DatabaseValue] { [.text(name)] }
}
