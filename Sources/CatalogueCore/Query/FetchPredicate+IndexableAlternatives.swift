extension FetchPredicate {
    /// A condition an index can answer with the ids of the rows that meet it, or of a few more:
    /// a `CONTAINS[cd]` of a stored folded key, or a column's equality to a value.
    public enum IndexableCondition: Sendable, Hashable {
        /// `CONTAINS[cd]` as the compiler writes it: the qualified key column
        /// (`product.name_key`) and the text folded as the key is.
        case keyContains(keyColumn: String, needle: String)
        /// `column == value` with no comparison options, the column qualified
        /// (`product.year`); `predicate` is the comparison itself.
        case equality(column: String, predicate: FetchPredicate)
    }

    /// The conditions every match must meet in which each is an OR of indexable conditions
    /// (``IndexableCondition``): this predicate itself, or each member of its top-level AND,
    /// when it is one such condition or an OR of only such conditions. Members that are not
    /// (a NOT, a BEGINSWITH, an OR with one other comparison) are left out: a match meets
    /// them too, but no index lists their rows.
    ///
    /// An engine may read each alternative's ids from its index, join the alternatives of a
    /// member and intersect the members: every match lies in the result. The terms mode's
    /// `lamp 2001` gives two members, `[name CONTAINS "lamp"]` and `[name CONTAINS "2001",
    /// year == 2001, price == 2001]`.
    ///
    /// ```swift
    /// CatalogueSearch.products(matching: "lamp 2001", mode: .terms).predicate
    ///     .requiredIndexableAlternatives(in: Product.schema).count  // 2
    /// ```
    public func requiredIndexableAlternatives(in schema: RecordSchema) -> [[IndexableCondition]] {
        let members: [FetchPredicate] = if case .and(let predicates) = self { predicates } else { [self] }
        return members.compactMap { member in
            let alternatives: [FetchPredicate] = if case .or(let predicates) = member { predicates } else { [member] }
            guard !alternatives.isEmpty else { return nil }
            var conditions: [IndexableCondition] = []
            for alternative in alternatives {
                guard let condition = alternative.indexableCondition(in: schema) else { return nil }
                conditions.append(condition)
            }
            return conditions
        }
    }

    /// This predicate as an ``IndexableCondition``, when it is one.
    private func indexableCondition(in schema: RecordSchema) -> IndexableCondition? {
        switch self {
        case .comparison(_, .contains, .text, _):
            let found = keyContainsComparisons(in: schema)
            guard found.count == 1 else { return nil }
            return .keyContains(keyColumn: found[0].keyColumn, needle: found[0].needle)
        case .comparison(let column, .equal, let value, let options):
            // Text compared with options reads a key or a folding function; NULL is `IS NULL`.
            guard options.isEmpty, value != .null, let qualified = schema.qualifiedColumns[column] else { return nil }
            return .equality(column: qualified, predicate: self)
        default:
            return nil
        }
    }
}
