extension CatalogueEntity {
    /// The column names an import of this entity takes.
    ///
    /// ```swift
    /// CatalogueEntity.products.importColumnNames  // ["id", "name", "type", "year", "price"]
    /// ```
    public var importColumnNames: [String] {
        switch self {
        case .countries: Country.importColumns.map(\.name)
        case .products: Product.importColumns.map(\.name)
        }
    }

    /// For a column an import of this entity does not know: the other entity, when the column
    /// is one of its own (and not one of this one's), so a message can say that a file of
    /// products was imported as countries.
    ///
    /// ```swift
    /// CatalogueEntity.countries.entity(owningUnknownColumn: "type")  // .products
    /// CatalogueEntity.countries.entity(owningUnknownColumn: "colour")  // nil
    /// ```
    public func entity(owningUnknownColumn column: String) -> CatalogueEntity? {
        var trimmed = Substring(column)
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        let name = trimmed.lowercased()
        guard !importColumnNames.contains(name) else { return nil }
        return Self.allCases.first { $0 != self && $0.importColumnNames.contains(name) }
    }
}
