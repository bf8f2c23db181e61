import CatalogueKit
@testable import CatalogueSQLite
import Foundation
import Testing

/// Imports and bulk upserts set aside the trigger for rows written without keys
/// (`product_keys_after_insert`) while every row has its keys, so that SQLite keeps no statement
/// journal per row, and bring it back before a row it fires for. CatalogueKit's folding gives
/// every non-empty name and type a non-empty key, so that last case is checked on the deferral
/// itself, with the values such a row would have.
@Suite("Key trigger deferral")
struct KeyTriggerDeferralTests {
    static let trigger = "product_keys_after_insert"
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    static func productTriggers(_ db: Connection) throws -> Set<String> {
        Set(try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'product'") {
            try $0.decode(String.self, at: 0)
        })
    }

    /// What a write leaves for the product named `name`: its keys, and the refold queue's rows for it.
    static func written(_ name: String, on db: Connection) throws -> [[DatabaseValue]] {
        try db.fetchAll(
            """
            SELECT p.name_key, p.type_key, r.value_column, r.key_column FROM product AS p
            LEFT JOIN catalogue_refold AS r ON r.table_name = 'product' AND r.row_id = p.id
            WHERE p.name = ? ORDER BY r.value_column
            """, [name]
        ) { $0.values }
    }

    /// What a row of `product` written with `nameKey`, by SQL with every trigger in place, leaves.
    static func reference(_ product: Product, nameKey: String) throws -> [[DatabaseValue]] {
        let catalogue = try seededCatalogue()
        return try catalogue.database.inDatabase { db in
            try db.execute(
                "INSERT INTO product (name, type, name_key, type_key) VALUES (?, ?, ?, ?)",
                StatementArguments([.text(product.name), .text(product.type), .text(nameKey), .text(Folding.fold(product.type))]))
            return try written(product.name, on: db)
        }
    }

    static func csv(rows: Int) -> String {
        "name,type,year\n" + (0..<rows).map { "Deferred \($0),\($0.isMultiple(of: 2) ? "even" : "odd"),2001\n" }.joined()
    }

    /// Imports `text` on the writing connection, calling `probe` with it at the progress report
    /// of 1,024 rows.
    func importProbing(_ text: String, probe: @escaping (Connection) throws -> Void) throws -> ImportCounts {
        try catalogue.database.inDatabase { db in
            try db.importRecords(
                Product.self, from: ImportInput(text: text, name: "deferred.csv"), options: ImportOptions(format: .csv),
                progress: { report in
                    if report.phase == .rows, report.rows == 1024 { try? probe(db) }
                })
        }
    }

    @Test("An import of rows that all have their keys runs without the trigger and ends with the same schema")
    func importWithKeys() throws {
        let schema = try CatalogueSnapshot(catalogue).schema
        let before = try catalogue.database.inDatabase(Self.productTriggers)
        #expect(before.contains(Self.trigger))
        var during: Set<String>?
        let counts = try importProbing(Self.csv(rows: 3000)) { during = try Self.productTriggers($0) }
        #expect(counts == ImportCounts(added: 3000))
        let probed = try #require(during)
        #expect(!probed.contains(Self.trigger), "set aside while the rows are written")
        #expect(try CatalogueSnapshot(catalogue).schema == schema)
        #expect(try catalogue.database.inDatabase { try Self.written("Deferred 2999", on: $0) } == [[.text("deferred 2999"), .text("odd"), .null, .null]])
    }

    /// Products `Bulk deferred 0` …, with a probe of the writing connection at one position.
    struct ProbedProducts: Sequence, IteratorProtocol {
        let count: Int
        let probeAt: Int
        let probe: () throws -> Void
        var position = 0

        var underestimatedCount: Int { count }

        mutating func next() -> Product? {
            guard position < count else { return nil }
            defer { position += 1 }
            if position == probeAt { try? probe() }
            return Product(name: "Bulk deferred \(position)", type: "odd", year: 2001)
        }
    }

    @Test("A bulk upsert sets the trigger aside while the records are written, and ends with the same schema")
    func bulkUpsert() throws {
        let schema = try CatalogueSnapshot(catalogue).schema
        var during: Set<String>?
        let counts = try catalogue.database.inDatabase { db in
            try db.upsert(contentsOf: ProbedProducts(count: 2000, probeAt: 1500) { during = try Self.productTriggers(db) })
        }
        #expect(counts.inserted == 2000)
        #expect(!(try #require(during).contains(Self.trigger)))
        #expect(try CatalogueSnapshot(catalogue).schema == schema)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "bulk deferred 1999")).map(\.name) == ["Bulk deferred 1999"])
    }

    @Test("Before a row with an empty key the trigger comes back, once, and fires as for any insert")
    func emptyKeyRestores() throws {
        let reference = try Self.reference(Product(name: "Provisional", type: "Odd"), nameKey: "")
        try catalogue.database.inDatabase { db in
            let deferral = try #require(try KeyTriggerDeferral.suspend(Product.self, on: db))
            #expect(!(try Self.productTriggers(db).contains(Self.trigger)))
            // The values of Product(name:type:) in writtenValues order: name, type, year, price, name_key, type_key.
            try deferral.willWrite([.text("Kept"), .text("Odd"), .null, .null, .text("kept"), .text("odd")], on: db)
            #expect(deferral.isSuspended)
            try deferral.willWrite([.text("Provisional"), .text("Odd"), .null, .null, .text(""), .text("odd")], on: db)
            #expect(!deferral.isSuspended)
            #expect(try Self.productTriggers(db).contains(Self.trigger))
            try deferral.resume(on: db)  // already back: nothing to do
            try db.execute("INSERT INTO product (name, type, name_key, type_key) VALUES ('Provisional', 'Odd', '', 'odd')")
            #expect(try Self.written("Provisional", on: db) == reference)
        }
    }

    @Test("A trigger with another condition is left alone")
    func otherTriggerKept() throws {
        try catalogue.database.inDatabase { db in
            try db.execute("DROP TRIGGER \(Self.trigger)")
            try db.execute(
                """
                CREATE TRIGGER \(Self.trigger) AFTER INSERT ON product WHEN new.name_key = '' BEGIN
                    UPDATE product SET name_key = lower(new.name) WHERE id = new.id;
                END
                """)
            #expect(try KeyTriggerDeferral.suspend(Product.self, on: db) == nil)
            #expect(try Self.productTriggers(db).contains(Self.trigger))
        }
    }

    @Test("A bulk upsert that fails after setting the trigger aside leaves it in place")
    func failedBulkUpsert() throws {
        let schema = try CatalogueSnapshot(catalogue).schema
        var batch = (0..<1500).map { Product(name: "Failing \($0)", type: "odd", year: 2001) }
        batch.append(Product(name: "Bad price", type: "odd", year: 2001, price: -1))
        #expect(throws: DatabaseError.self) {
            try catalogue.database.inDatabase { db in try db.upsert(contentsOf: batch) }
        }
        #expect(try catalogue.database.inDatabase(Self.productTriggers).contains(Self.trigger))
        #expect(try CatalogueSnapshot(catalogue).schema == schema)
    }
}
