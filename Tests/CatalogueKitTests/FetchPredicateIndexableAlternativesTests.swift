import CatalogueKit
import Testing

/// `FetchPredicate.requiredIndexableAlternatives(in:)`: the members of a predicate's top-level
/// AND that an index can list the rows of.
@Suite("Indexable alternatives of a predicate")
struct FetchPredicateIndexableAlternativesTests {
    @Test("The terms mode: a member per term, a number also as year and price")
    func terms() {
        let predicate = CatalogueSearch.products(matching: "Lampe 2001", mode: .terms).predicate
        let members = predicate.requiredIndexableAlternatives(in: Product.schema)
        #expect(members == [
            [.keyContains(keyColumn: "product.name_key", needle: "lampe")],
            [
                .keyContains(keyColumn: "product.name_key", needle: "2001"),
                .equality(column: "product.year", predicate: .equals("year", 2001)),
                .equality(column: "product.price", predicate: .equals("price", 2001.0)),
            ],
        ])
    }

    @Test("A single condition is its own member; members no index lists are left out")
    func members() {
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        #expect(FetchPredicate.equals("year", 1999).requiredIndexableAlternatives(in: Product.schema)
            == [[.equality(column: "product.year", predicate: .equals("year", 1999))]])
        let mixed = FetchPredicate.contains("name", "mug", options: cd)
            && .beginsWith("name", "m", options: cd)
            && .not(.equals("year", 1999))
            && (.equals("year", 1999) || .beginsWith("name", "x"))
            && .equals("year", nil as Int?)
            && .equals("type", "Mug", options: cd)
            && .contains("name", "mug")
        #expect(mixed.requiredIndexableAlternatives(in: Product.schema)
            == [[.keyContains(keyColumn: "product.name_key", needle: "mug")]])
        #expect(FetchPredicate.or([]).requiredIndexableAlternatives(in: Product.schema).isEmpty)
        #expect(FetchPredicate.equals("nonexistent", 1).requiredIndexableAlternatives(in: Product.schema).isEmpty)
    }
}
