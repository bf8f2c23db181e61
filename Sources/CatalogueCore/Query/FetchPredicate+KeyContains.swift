extension FetchPredicate {
    /// The `CONTAINS[cd]` comparisons of this predicate that compare a column's stored folded
    /// key, as the compiler writes them: the qualified key column (`product.name_key`) and the
    /// text folded as the key is. An engine that indexes substrings of a key column looks its
    /// candidates up for these (see ``RecordSchema/substringIndexedColumns``).
    ///
    /// ```swift
    /// CatalogueSearch.products(matching: "Crème", mode: .contains).predicate
    ///     .keyContainsComparisons(in: Product.schema)  // [("product.name_key", "creme")]
    /// ```
    public func keyContainsComparisons(in schema: RecordSchema) -> [(keyColumn: String, needle: String)] {
        var found: [(keyColumn: String, needle: String)] = []
        collectKeyContains(in: schema, into: &found)
        return found
    }

    private func collectKeyContains(in schema: RecordSchema, into found: inout [(keyColumn: String, needle: String)]) {
        switch self {
        case .comparison(let column, .contains, .text(let text), let options):
            // The compiler compares the key exactly when the options are [cd] and the column has one.
            guard options == .caseAndDiacriticInsensitive, let key = schema.keyColumn(for: column),
                  let qualified = schema.qualifiedColumns[key]
            else { return }
            found.append((qualified, Folding.fold(text, options: options)))
        case .and(let predicates), .or(let predicates):
            for predicate in predicates { predicate.collectKeyContains(in: schema, into: &found) }
        case .not(let inner):
            inner.collectKeyContains(in: schema, into: &found)
        default:
            return
        }
    }
}

extension FetchPredicate {
    /// The `CONTAINS[cd]` comparisons of stored keys that every match must meet: this predicate
    /// itself, or the members of its ANDs and one-member ORs (not those beside other
    /// alternatives, or under NOT). An engine
    /// may narrow the rows to those holding all of them before checking the whole predicate.
    ///
    /// ```swift
    /// (FetchPredicate.contains("name", "lamp", options: .caseAndDiacriticInsensitive)
    ///     && .equals("type", "light"))
    ///     .requiredKeyContainsComparisons(in: Product.schema)  // [("product.name_key", "lamp")]
    /// ```
    public func requiredKeyContainsComparisons(in schema: RecordSchema) -> [(keyColumn: String, needle: String)] {
        switch self {
        case .comparison(_, .contains, .text, _):
            return keyContainsComparisons(in: schema)
        case .and(let predicates):
            return predicates.flatMap { $0.requiredKeyContainsComparisons(in: schema) }
        case .or(let predicates) where predicates.count == 1:
            // A term of the terms mode with no other reading.
            return predicates[0].requiredKeyContainsComparisons(in: schema)
        default:
            return []
        }
    }
}
