extension FetchPredicate {
    /// The full-text pattern that every match must satisfy: the predicate itself, or one operand
    /// of its top-level AND; and the other operands. Relevance needs it (``FetchSortDescriptor/relevance``).
    ///
    /// ```swift
    /// let pattern = FullTextPattern(matchingAllPrefixesIn: "ipad")!
    /// (.fullText(pattern) && .equals("type", "device")).fullTextConjunct?.others  // [.equals("type", "device")]
    /// ```
    public var fullTextConjunct: (pattern: FullTextPattern, others: [FetchPredicate])? {
        var conjuncts: [FetchPredicate]
        if case .and(let predicates) = self { conjuncts = predicates } else { conjuncts = [self] }
        guard let index = conjuncts.firstIndex(where: { if case .fullText = $0 { true } else { false } }),
              case .fullText(let pattern) = conjuncts[index]
        else { return nil }
        conjuncts.remove(at: index)
        return (pattern, conjuncts)
    }
}
