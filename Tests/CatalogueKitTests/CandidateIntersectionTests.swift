import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// Requests with two or more indexed conditions (the terms mode's `lamp 2001`) read only the
/// intersection of their indexes' ids (`Connection.intersectedCandidates(for:)`): the rows,
/// their order and the counts stay exactly what the plain scan gives.
@Suite("Candidates from the intersection of indexes")
struct CandidateIntersectionTests {
    /// Ids in order, and the exact and capped counts, of `request` as planned and as scanned
    /// with the plain dialect; and whether the plan read an intersection.
    static func outcomes(
        _ request: FetchRequest<Product>, in catalogue: Catalogue
    ) throws -> (planned: ContainsPlanningTests.Outcome, scanned: ContainsPlanningTests.Outcome, intersected: Bool) {
        let (planned, scanned, _) = try ContainsPlanningTests.outcomes(request, in: catalogue)
        let intersected = try catalogue.database.read { db in
            try request.selectSQL(in: db.plannedDialect(for: request)).sql.contains("json_each")
        }
        return (planned, scanned, intersected)
    }

    static let words = ["lamp", "shade", "desk", "mug", "kettle", "2001", "1999", "café", "Lampe", "12"]

    /// 600 products named from `words`, with years from 1995 to 2005 and prices that are
    /// sometimes whole numbers that are also years.
    static func makeCatalogue(using generator: inout SplitMix64) throws -> Catalogue {
        let catalogue = try emptyCatalogue()
        var names: Set<String> = []
        while names.count < 600 {
            let count = Int.random(in: 1...3, using: &generator)
            names.insert((0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
                + " \(Int.random(in: 0...99, using: &generator))")
        }
        let products = names.sorted().map { name in
            let price: Double? = switch Int.random(in: 0...3, using: &generator) {
            case 0: nil
            case 1: Double([12, 1999, 2001].randomElement(using: &generator)!)
            default: Double(Int.random(in: 1...5000, using: &generator)) / 100
            }
            let year: Int? = Int.random(in: 0...9, using: &generator) == 0 ? nil : Int.random(in: 1995...2005, using: &generator)
            return Product(name: name, type: "thing", year: year, price: price)
        }
        try catalogue.write { db in
            for product in products { _ = try db.insert(product) }
        }
        return catalogue
    }

    /// A new catalogue with `products(year)` for each year from 1990 to 2010.
    static func catalogue(eachYear products: (Int) -> [Product]) throws -> Catalogue {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            for year in 1990...2010 {
                for product in products(year) { _ = try db.insert(product) }
            }
        }
        return catalogue
    }

    @Test("Random terms searches: the planned rows and counts equal the scan's, and two indexed terms read an intersection")
    func plannedEqualsScan() throws {
        let seed = SearchPropertyTests.seed ^ 0x1A7E_5EC7
        var generator = SplitMix64(seed: seed)
        let catalogue = try Self.makeCatalogue(using: &generator)
        var intersections = 0
        for _ in 0..<150 {
            let count = Int.random(in: 1...3, using: &generator)
            let text = (0..<count).map { _ in
                let word = Self.words.randomElement(using: &generator)!
                // Sometimes a piece of a word: under three characters, no trigram lists its rows.
                return Bool.random(using: &generator) ? word : String(word.prefix(Int.random(in: 1...word.count, using: &generator)))
            }.joined(separator: " ")
            for limit in [nil, 5] {
                var request = CatalogueSearch.products(matching: text, mode: .terms)
                request.fetchLimit = limit
                request.fetchOffset = limit == nil ? 0 : 2
                let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
                #expect(planned == scanned, "seed \(seed): terms \(String(reflecting: text)), limit \(String(describing: limit))")
                let members = request.predicate.requiredIndexableAlternatives(in: Product.schema)
                let indexedMembers = members.filter { alternatives in
                    alternatives.allSatisfy {
                        if case .keyContains(_, let needle) = $0 { needle.unicodeScalars.count >= 3 } else { true }
                    }
                }
                // A term that is a number alone is no CONTAINS to narrow.
                let hasNarrowable = !request.predicate.requiredKeyContainsComparisons(in: Product.schema).isEmpty
                #expect(intersected == (indexedMembers.count >= 2 && hasNarrowable), "seed \(seed): terms \(String(reflecting: text))")
                if intersected { intersections += 1 }
            }
        }
        #expect(intersections > 40, "seed \(seed): too few searches read an intersection")
    }

    @Test("Two terms that fold to the same text (lamp Lamp) narrow that comparison in both places")
    func termsFoldingAlike() throws {
        let catalogue = try Self.catalogue { [Product(name: "Lamp \($0)", type: "light", year: $0)] }
        for text in ["lamp Lamp", "lamp LAMP 2001", "lampe Lampe"] {
            let request = CatalogueSearch.products(matching: text, mode: .terms)
            let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
            #expect(intersected, "\(text)")
            #expect(planned == scanned, "\(text)")
        }
    }

    @Test("lamp 2001: the candidates are the rows holding lamp's trigrams that hold 2001 or were made or cost 2001")
    func candidatesOfLamp2001() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            for product in [
                Product(name: "Desk lamp", type: "light", year: 2001),          // year
                Product(name: "Lamp 2001", type: "light", year: 1990),          // name
                Product(name: "Floor lamp", type: "light", year: 1990, price: 2001),  // price
                Product(name: "Lamb camp", type: "light", year: 2001),          // lamp's trigrams, not lamp
                Product(name: "Table lamp", type: "light", year: 1990),         // lamp only
                Product(name: "Mug", type: "kitchen", year: 2001),              // 2001 only
            ] { _ = try db.insert(product) }
        }
        let request = CatalogueSearch.products(matching: "lamp 2001", mode: .terms)
        let candidates = try catalogue.database.read { db in try db.intersectedCandidates(for: request) }
        #expect(candidates?.ids == [1, 2, 3, 4])
        #expect(candidates?.comparison == .init(expression: "product.name_key", needle: "lamp"))
        #expect(try catalogue.fetch(request).map(\.name) == ["Desk lamp", "Floor lamp", "Lamp 2001"])
        let results = try catalogue.search(request, limit: 2, count: .capped(at: 1_000))
        #expect(results.records.map(\.name) == ["Desk lamp", "Floor lamp"])
        #expect(results.shownSummary == "2 of 3 shown")
        // The ids kept for the page and count are forgotten when the data changes.
        try catalogue.write { db in
            _ = try db.insert(Product(name: "Bedside lamp", type: "light", year: 2001))
            try db.update(Product(id: 2, name: "Lamp 1990", type: "light", year: 1990))
        }
        #expect(try catalogue.fetch(request).map(\.name) == ["Bedside lamp", "Desk lamp", "Floor lamp"])
        #expect(try catalogue.search(request, limit: 2, count: .capped(at: 1_000)).shownSummary == "2 of 3 shown")
    }

    @Test("No intersection where it would not hold or not help")
    func notIntersected() throws {
        let catalogue = try Self.catalogue { [Product(name: "lamp \($0) shade", type: "light", year: $0, price: Double($0))] }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        let lamp = FetchPredicate.contains("name", "lamp", options: cd)
        let cases: [(String, FetchPredicate)] = [
            ("one indexed term", lamp),
            ("a term of two characters", CatalogueSearch.products(matching: "la 2001", mode: .terms).predicate),
            ("an equality on a column with no index of its own", lamp && .equals("type", "light")),
            ("an equality with options", lamp && .equals("type", "LIGHT", options: cd)),
            ("no CONTAINS to narrow", .equals("year", 2001) && .equals("price", 2001.0)),
        ]
        for (label, predicate) in cases {
            let request = FetchRequest<Product>(predicate: predicate, sortDescriptors: FetchSortDescriptor.byName)
            let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
            #expect(!intersected, "\(label)")
            #expect(planned == scanned, "\(label)")
        }
        // An index on type makes its equality a list, but only in the collation `=` compares with.
        let typed = FetchRequest<Product>(predicate: lamp && .equals("type", "light"), sortDescriptors: FetchSortDescriptor.byName)
        try catalogue.database.write { db in try db.execute("CREATE INDEX product_by_type_nocase ON product (type COLLATE NOCASE)") }
        #expect(try !Self.outcomes(typed, in: catalogue).intersected, "an index in another collation")
        try catalogue.database.write { db in try db.execute("CREATE INDEX product_by_type ON product (type)") }
        let (planned, scanned, intersected) = try Self.outcomes(typed, in: catalogue)
        #expect(intersected, "an index in the binary collation")
        #expect(planned == scanned)
        #expect(planned.count == 21)
    }

    @Test("The narrowed comparison written again, under NOT and beside alternatives: narrowed everywhere, the rows stay the scan's")
    func narrowedTwice() throws {
        let catalogue = try Self.catalogue { year in [
            Product(name: "lamp \(year) shade", type: "light", year: year, price: Double(year)),
            Product(name: "desk \(year)", type: "desk", year: year, price: 1),
        ] }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        let lamp = FetchPredicate.contains("name", "lamp", options: cd)
        let shade = FetchPredicate.contains("name", "shade", options: cd)
        let predicates: [FetchPredicate] = [
            lamp && .equals("year", 2001) && .not(lamp && .equals("price", 2001.0)),
            lamp && .equals("year", 2001) && .not(lamp && .equals("price", 1.0)),
            lamp && (.equals("year", 2001) || .equals("year", 2002)) && (lamp || .equals("price", 1.0)),
            (lamp || .equals("price", 1.0)) && (.equals("year", 2003) || shade) && lamp,
            lamp && .equals("year", 2004) && !(.not(lamp)),
        ]
        var counts: [Int] = []
        for predicate in predicates {
            let request = FetchRequest<Product>(predicate: predicate, sortDescriptors: FetchSortDescriptor.byName)
            let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
            #expect(intersected, "\(predicate)")
            #expect(planned == scanned, "\(predicate)")
            counts.append(planned.count)
        }
        #expect(counts == [0, 1, 2, 21, 1])
    }

    @Test("A search of seven indexed terms is intersected, and its rows stay the scan's")
    func manyTerms() throws {
        let catalogue = try Self.catalogue {
            [Product(name: "desk lamp shade \($0) kettle mug", type: "light", year: $0, price: Double($0))]
        }
        let request = CatalogueSearch.products(matching: "lamp 2001 shade desk kettle mug 2001.0", mode: .terms)
        #expect(request.predicate.requiredIndexableAlternatives(in: Product.schema).count == 7)
        let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
        #expect(intersected)
        #expect(planned == scanned)
        #expect(planned.ids == [12])
    }

    @Test("Above the candidate limit the request is planned as before, with the same rows")
    func aboveTheLimit() throws {
        let catalogue = try emptyCatalogue()
        let many = Connection.intersectionCandidateLimit + 10
        try catalogue.write { db in
            for index in 0..<many { _ = try db.insert(Product(name: "lamp \(index)", type: "light", year: 2001)) }
            _ = try db.insert(Product(name: "lamp shade", type: "light", year: 1999))
        }
        var request = CatalogueSearch.products(matching: "lamp 2001", mode: .terms)
        #expect(try catalogue.database.read { db in try db.intersectedCandidates(for: request) } == nil)
        request.fetchLimit = 3
        let (planned, scanned, intersected) = try Self.outcomes(request, in: catalogue)
        #expect(!intersected)
        #expect(planned == scanned)
        #expect(planned.count == many)
    }

    @Test("The ids in both, and in either, of two ascending lists")
    func intersectionOfLists() {
        #expect(Connection.intersection(of: [1, 3, 5, 7, 9], and: [2, 3, 4, 9, 10]) == [3, 9])
        #expect(Connection.intersection(of: [], and: [1]) == [])
        #expect(Connection.intersection(of: [1, 2], and: [3, 4]) == [])
        #expect(Connection.union(of: [1, 3, 3, 9], and: [2, 3, 10]) == [1, 2, 3, 9, 10])
        #expect(Connection.union(of: [], and: [4, 4]) == [4])
        #expect(Connection.union(of: [5], and: []) == [5])
    }
}
