extension SectionedResultsController where R == Country {
    /// Starts or updates a search with the repository's semantics (``CatalogueSearch``):
    /// one untitled section of the matching countries; empty text shows every country.
    ///
    /// ```swift
    /// try controller.search("bog", scope: .capital)   // Colombia
    /// try controller.endSearch()
    /// ```
    public func search(_ text: String, scope: CountryScope = .name, mode: MatchMode = .prefix) throws {
        try beginSearch(CatalogueSearch.countries(matching: text, scope: scope, mode: mode))
    }
}

extension SectionedResultsController where R == Product {
    /// Starts or updates a search with the repository's semantics (``CatalogueSearch``):
    /// one untitled section of the matching products; empty text shows every product of the
    /// scope.
    public func search(_ text: String, scope: ProductScope = .all, mode: MatchMode = .prefix) throws {
        try beginSearch(CatalogueSearch.products(matching: text, scope: scope, mode: mode))
    }
}
