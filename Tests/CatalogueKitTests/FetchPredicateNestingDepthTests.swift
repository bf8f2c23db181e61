import CatalogueKit
import Testing

@Suite("FetchPredicate nesting depth")
struct FetchPredicateNestingDepthTests {
    let leaf: FetchPredicate = .beginsWith("name", "bo")

    @Test("A comparison is one level; NOT, AND and OR add one each")
    func levels() {
        #expect(leaf.nestingDepth == 1)
        #expect(FetchPredicate.true.nestingDepth == 1)
        #expect((!leaf).nestingDepth == 2)
        #expect((leaf && leaf).nestingDepth == 2)
        #expect((leaf && !(leaf || leaf)).nestingDepth == 4)
        #expect(FetchPredicate.and([]).nestingDepth == 1)
    }

    @Test("A list longer than 64 counts the halvings of the balanced tree it is written as")
    func balancedLists() {
        #expect(FetchPredicate.and(Array(repeating: leaf, count: 64)).nestingDepth == 2)
        #expect(FetchPredicate.and(Array(repeating: leaf, count: 65)).nestingDepth == 3)
        #expect(FetchPredicate.or(Array(repeating: leaf, count: 128)).nestingDepth == 3)
        #expect(FetchPredicate.or(Array(repeating: leaf, count: 129)).nestingDepth == 4)
        // 10,000 → 5,000 → 2,500 → 1,250 → 625 → 313 → 157 → 79 → 40: eight halvings.
        #expect(FetchPredicate.and(Array(repeating: leaf, count: 10_000)).nestingDepth == 10)
    }

    @Test("A search of 10,000 terms nests at most 11 levels (its lists are balanced trees), well within the limit")
    func manyTerms() {
        let text = (0..<10_000).map { "w\($0)" }.joined(separator: " ")
        for mode in MatchMode.allCases {
            let depth = CatalogueSearch.countries(matching: text, mode: mode).predicate.nestingDepth
            #expect(depth <= 11 && 11 < FetchPredicate.maximumNestingDepth, "\(mode): \(depth)")
        }
    }
}
