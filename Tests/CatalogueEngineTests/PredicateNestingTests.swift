import CatalogueKit
import Testing

/// A predicate nested as deep as ``FetchPredicate/maximumNestingDepth`` runs in every kind of
/// statement a request becomes, on every engine; one level deeper is refused with
/// `FetchRequestError.nestedTooDeeply`, never an engine's parser error. (The predicate format
/// fuzzer found `!!!…!!! name ENDSWITH %@`, 117 deep, failing with SQLite's "parser stack
/// overflow".)
@Suite("Deeply nested predicates")
struct PredicateNestingTests {
    /// Conditions that compile to the longest SQL: a subquery over the aliases, a suffix, a
    /// regular expression, a list, a range. (Computed, not stored: a stored static of indirect
    /// enum values is reported as a leak by LeakSanitizer, which does not see it from the
    /// test runner.)
    static var leaves: [FetchPredicate] { [
        .anyAlias(operator: .contains, value: "ivo", options: .caseAndDiacriticInsensitive),
        .comparison(column: "name", operator: .endsWith, value: .text("ia"), options: .caseAndDiacriticInsensitive),
        .comparison(column: "capital", operator: .matches, value: .text("^[a-m].*"), options: .caseInsensitive),
        .in(column: "code", values: [.text("CO"), .text("FR"), .text("JP")], options: []),
        .between(column: "population", lower: .integer(1), upper: .integer(2_000_000_000)),
    ] }

    /// The shapes that nest deepest in SQL: `NOT (NOT (…))`, `(a) AND ((b) OR (…))`, and
    /// `NOT ((a) AND (NOT (…)))`, each exactly `depth` levels deep.
    static func shapes(depth: Int) -> [(String, FetchPredicate)] {
        let leaves = Self.leaves
        func nested(_ depth: Int, _ wrap: (FetchPredicate, Int) -> FetchPredicate) -> FetchPredicate {
            var predicate = leaves[0]
            for level in 1..<depth { predicate = wrap(predicate, level) }
            return predicate
        }
        return [
            ("NOT chain", nested(depth) { inner, _ in .not(inner) }),
            ("AND/OR ladder", nested(depth) { inner, level in
                let leaf = leaves[level % leaves.count]
                return level.isMultiple(of: 2) ? .and([leaf, inner]) : .or([leaf, inner])
            }),
            ("NOT/AND ladder", nested(depth) { inner, level in
                level.isMultiple(of: 2) ? .not(inner) : .and([leaves[level % leaves.count], inner])
            }),
        ]
    }

    @Test("Every shape at the limit runs as a page, a count, a capped count, ids and sections",
          arguments: EngineUnderTest.all)
    func atTheLimit(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        for (name, predicate) in Self.shapes(depth: FetchPredicate.maximumNestingDepth) {
            #expect(predicate.nestingDepth == FetchPredicate.maximumNestingDepth, "\(name)")
            let request = FetchRequest<Country>(predicate: predicate, sortDescriptors: FetchSortDescriptor.byName, fetchLimit: 10)
            let page = try catalogue.fetch(request)
            let count = try catalogue.fetchCount(request)
            #expect(page.count == min(10, count), "\(name)")
            #expect(try catalogue.fetchIDs(request).count == min(10, count), "\(name)")
            let capped = try catalogue.search(request, limit: 10, count: .capped(at: 3))
            #expect(capped.records.map(\.id) == page.map(\.id), "\(name)")
            let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: FetchRequest<Country>(
                predicate: predicate, sortDescriptors: FetchSortDescriptor.byName))
            try controller.performFetch()
            #expect(controller.fetchedCount == count, "\(name)")
            try controller.beginSearch(FetchRequest<Country>(predicate: predicate, sortDescriptors: FetchSortDescriptor.byName))
            #expect(controller.fetchedCount == count, "\(name)")
        }
    }

    @Test("At the limit beside every search mode's own condition (ranked words in tiers, fuzzy, contains pages)",
          arguments: EngineUnderTest.all)
    func besideEverySearchMode(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        // `request.predicate && .or([deep, .false])` is an AND of the mode's conditions and an OR
        // (not merged into the AND, as `&& deep` would merge an AND): two levels over `deep`.
        for (name, deep) in Self.shapes(depth: FetchPredicate.maximumNestingDepth - 2) {
            for mode in MatchMode.allCases {
                for text in ["united", "lan", "Columbia"] {
                    var request = CatalogueSearch.countries(matching: text, mode: mode)
                    let plain = try catalogue.fetch(request)
                    request.predicate = request.predicate && .or([deep, .false])
                    request.fetchLimit = 10
                    #expect(request.predicate.nestingDepth == FetchPredicate.maximumNestingDepth, "\(name) \(mode) \(text)")
                    let page = try catalogue.fetch(request)
                    #expect(Set(page.map(\.id)).isSubset(of: plain.map(\.id)), "\(name) \(mode) \(text)")
                    _ = try catalogue.search(request, limit: 10, count: .standard)
                    request.sortDescriptors = []
                    _ = try catalogue.fetch(request)
                }
            }
        }
    }

    @Test("One level deeper is refused before any SQL runs, naming the depth and the limit",
          arguments: EngineUnderTest.all)
    func beyondTheLimit(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let limit = FetchPredicate.maximumNestingDepth
        for (name, predicate) in Self.shapes(depth: limit + 1) + Self.shapes(depth: 117) {
            let request = FetchRequest<Country>(predicate: predicate, sortDescriptors: FetchSortDescriptor.byName, fetchLimit: 10)
            let depth = predicate.nestingDepth
            #expect(throws: FetchRequestError.nestedTooDeeply(depth: depth, limit: limit), "\(name)") {
                try catalogue.fetch(request)
            }
            #expect(throws: FetchRequestError.nestedTooDeeply(depth: depth, limit: limit), "\(name)") {
                try catalogue.fetchCount(request)
            }
            #expect(throws: FetchRequestError.nestedTooDeeply(depth: depth, limit: limit), "\(name)") {
                try catalogue.search(request, limit: 10)
            }
        }
        #expect(FetchRequestError.nestedTooDeeply(depth: 21, limit: 20).description
            == "the predicate nests 21 levels of NOT, AND and OR; at most 20 are allowed")
    }
}
