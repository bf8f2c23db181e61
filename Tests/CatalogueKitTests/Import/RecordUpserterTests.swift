@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// The batch upserter agrees with `Connection.upsert(_:)` on every outcome and every row.
@Suite("Record upserter")
struct RecordUpserterTests {
    @Test("Its SQL: insert or nothing, then update only when a value differs; never the name")
    func sql() throws {
        let sql = try #require(RecordUpserter<Product>.sql())
        #expect(sql.insert == "INSERT INTO product (name, type, year, price, name_key, type_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
            + "ON CONFLICT (name, type_key) DO NOTHING")
        // type_key is part of the key: a type that only changes case keeps it.
        #expect(sql.update == "UPDATE product SET type = ?2, year = ?3, price = ?4 "
            + "WHERE name = ?1 AND type_key = ?6 AND (type IS NOT ?2 OR year IS NOT ?3 OR price IS NOT ?4)")
        // Countries have aliases: they take the general path.
        #expect(RecordUpserter<Country>.sql() == nil)
    }

    @Test("Random upserts: the same outcomes and rows as Connection.upsert")
    func matchesUpsert() throws {
        let fast = try emptyCatalogue()
        let reference = try emptyCatalogue()
        var generator = SplitMix64(seed: 7)
        let names = ["Brio", "Crème", "crème", "Dune", "Éclair"]
        let types = ["device", "Device", "garden"]
        var products: [Product] = []
        for _ in 0..<400 {
            products.append(Product(
                name: names.randomElement(using: &generator)!, type: types.randomElement(using: &generator)!,
                year: Bool.random(using: &generator) ? nil : Int.random(in: 2000...2002, using: &generator),
                price: Bool.random(using: &generator) ? nil : Double(Int.random(in: 1...3, using: &generator)) / 2))
        }
        let fastOutcomes = try fast.database.write { db in
            let upserter = try RecordUpserter<Product>(db)
            return try products.map { try upserter.upsert($0) }
        }
        let referenceOutcomes = try reference.write { db in try products.map { try db.upsert($0).outcome } }
        #expect(fastOutcomes == referenceOutcomes)
        #expect(Set(fastOutcomes).count == 3)
        #expect(try fast.allProducts() == reference.allProducts())
        _ = try CatalogueSnapshot(fast)
    }

    @Test("A constraint failure rolls back the row only; the upserter goes on")
    func constraintFailure() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.database.write { db in
            let upserter = try RecordUpserter<Product>(db)
            #expect(try upserter.upsert(Product(name: "A", type: "t", year: 1)) == .inserted)
            #expect(throws: DatabaseError.self) { try upserter.upsert(Product(name: "B", type: "t", year: 10_000)) }
            #expect(try upserter.upsert(Product(name: "A", type: "t", year: 2)) == .updated)
            #expect(throws: DatabaseError.self) { try upserter.upsert(Product(name: "A", type: "t", price: -1)) }
        }
        #expect(try catalogue.allProducts().map(\.year) == [2])
    }

    @Test("A type whose last written column is a key of a natural-key column (a city's name_key): its UPDATE binds fewer values, and runs")
    func updateWithoutTrailingKey() throws {
        let sql = try #require(RecordUpserter<City>.sql())
        // name_key (?4) follows the name, which the update never assigns.
        #expect(sql.update == "UPDATE city SET population = ?3 WHERE name = ?1 AND country_code = ?2 AND (population IS NOT ?3)")
        let catalogue = try Catalogue(path: ":memory:", appMigrations: [City.migration])
        let outcomes = try catalogue.database.write { db in
            let upserter = try RecordUpserter<City>(db)
            return try [
                City(name: "Paris", countryCode: "FR", population: 2_165_423),
                City(name: "Paris", countryCode: "FR", population: 2_102_650),
                City(name: "Paris", countryCode: "FR", population: 2_102_650),
            ].map { try upserter.upsert($0) }
        }
        #expect(outcomes == [.inserted, .updated, .unchanged])
        #expect(try catalogue.read { db in try db.fetch(FetchRequest<City>()) }.map(\.population) == [2_102_650])
    }
}
