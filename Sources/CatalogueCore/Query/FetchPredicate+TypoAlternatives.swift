extension FetchPredicate {
    /// Whether some full-text pattern in the predicate tolerates typos and has not had its
    /// alternatives looked up (``FullTextPattern/needsTypoAlternatives``).
    public var needsTypoAlternatives: Bool {
        switch self {
        case .fullText(let pattern): pattern.needsTypoAlternatives
        case .and(let predicates), .or(let predicates): predicates.contains(where: \.needsTypoAlternatives)
        case .not(let inner): inner.needsTypoAlternatives
        default: false
        }
    }

    /// The predicate with every full-text pattern replaced by `transform(pattern)`.
    ///
    /// ```swift
    /// let resolved = predicate.mappingFullText { $0.resolvingTypos { _ in ["colombia"] } }
    /// ```
    public func mappingFullText(_ transform: (FullTextPattern) throws -> FullTextPattern) rethrows -> FetchPredicate {
        switch self {
        case .fullText(let pattern): .fullText(try transform(pattern))
        case .and(let predicates): .and(try predicates.map { try $0.mappingFullText(transform) })
        case .or(let predicates): .or(try predicates.map { try $0.mappingFullText(transform) })
        case .not(let inner): .not(try inner.mappingFullText(transform))
        default: self
        }
    }
}

extension CatalogueReading {
    /// `request` with the typo alternatives of its typo-tolerant full-text patterns looked up in
    /// this connection's full-text vocabulary (``fullTextVocabulary(of:startingWith:)``); the
    /// request itself when it has none to look up. Engines call it before writing a request's
    /// SQL, so ``MatchMode/fuzzy`` reads the same on every engine.
    ///
    /// ```swift
    /// let request = CatalogueSearch.countries(matching: "Columbia", mode: .fuzzy)
    /// let resolved = try db.resolvingTypos(in: request)
    /// // its pattern: "columbia" as a prefix, or the whole word "colombia"
    /// ```
    public func resolvingTypos<R: Record>(in request: FetchRequest<R>) throws -> FetchRequest<R> {
        guard request.predicate.needsTypoAlternatives else { return request }
        var resolved = request
        resolved.predicate = try request.predicate.mappingFullText { pattern in
            try pattern.resolvingTypos { first in try fullTextVocabulary(of: R.schema, startingWith: first) }
        }
        return resolved
    }
}
