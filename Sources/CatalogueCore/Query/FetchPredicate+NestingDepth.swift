extension FetchPredicate {
    /// The deepest a request's predicate may nest (``nestingDepth``); a request whose predicate
    /// nests deeper throws ``FetchRequestError/nestedTooDeeply(depth:limit:)`` when its SQL is
    /// written, and a format string that opens more parentheses and `NOT`s than this throws
    /// ``PredicateFormatError``.
    ///
    /// SQLite's parser keeps a stack of 100 entries, which `NOT (NOT (…))` nested 47 deep
    /// overflows, and the statements a request becomes wrap its predicate in subqueries: beside
    /// a ranked words search (the relevance tiers), an AND/OR ladder 23 levels deep overflows it.
    /// Twenty levels leave room for that, for any predicate written by hand, and for a search of
    /// 100,000 terms (14 levels).
    ///
    /// ```swift
    /// var predicate: FetchPredicate = .beginsWith("name", "bo")
    /// for _ in 0..<30 { predicate = .not(predicate) }
    /// predicate.nestingDepth > FetchPredicate.maximumNestingDepth  // true: its requests throw
    /// ```
    public static let maximumNestingDepth = 20

    /// How many levels of `NOT`, `AND` and `OR` this predicate nests, counting itself: 1 for a
    /// comparison, 2 for `NOT` of one or for `AND` of two.
    ///
    /// A list of more than 64 operands counts the levels of the balanced tree it is written as
    /// (one more for each halving), so an AND of ten thousand comparisons nests 10 levels, not
    /// 10,001.
    ///
    /// ```swift
    /// let predicate: FetchPredicate = .beginsWith("name", "bo") && !.lessThan("population", 1_000)
    /// predicate.nestingDepth  // 3: AND, NOT, the comparison
    /// ```
    public var nestingDepth: Int {
        switch self {
        case .not(let inner):
            return 1 + inner.nestingDepth
        case .and(let predicates), .or(let predicates):
            var halvings = 0
            var count = predicates.count
            while count > PredicateCompiler.flatListLimit {
                count = (count + 1) / 2
                halvings += 1
            }
            return 1 + halvings + (predicates.lazy.map(\.nestingDepth).max() ?? 0)
        case .comparison, .between, .in, .anyAlias, .fullText, .substitution, .true, .false:
            return 1
        }
    }
}
