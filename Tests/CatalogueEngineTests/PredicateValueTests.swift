import CatalogueKit
import Foundation
import Testing

/// Values a predicate compares with mean the same on every engine.
@Suite("Predicate values")
struct PredicateValueTests {
    @Test("NaN (Double or Float) compares as NULL: no row is less, more or equal, on every engine", arguments: EngineUnderTest.all)
    func notANumber(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        #expect(try catalogue.count(Product.self, where: .greaterThan("price", 0)) > 0)
        for predicate in [FetchPredicate.lessThan("price", Double.nan), .greaterThan("price", DatabaseValue.real(.nan)),
                          .equals("price", DatabaseValue.real(.nan)), try FetchPredicate(format: "price < %@", Float.nan),
                          try FetchPredicate(format: "price > %@", Double.nan)] {
            #expect(try catalogue.count(Product.self, where: predicate) == 0, "\(predicate)")
        }
    }
}
