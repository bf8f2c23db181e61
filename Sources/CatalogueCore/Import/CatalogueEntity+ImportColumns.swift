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

extension ImportIssue {
    /// How the reason of an issue about a column the import does not know begins.
    static let unknownColumnReasonPrefix = "unknown column"

    /// For an issue about a column an import of `entity` does not know: the other entity, when
    /// the column is one of its own, so that a message can say the file holds that entity.
    ///
    /// ```swift
    /// let issue = ImportIssue(source: "p.csv", line: 1, column: "type", reason: "unknown column; known columns: …")
    /// issue.entityOwningUnknownColumn(importing: .countries)  // .products
    /// ```
    public func entityOwningUnknownColumn(importing entity: CatalogueEntity) -> CatalogueEntity? {
        guard reason.hasPrefix(Self.unknownColumnReasonPrefix), let column else { return nil }
        return entity.entity(owningUnknownColumn: column)
    }
}
