extension Catalogue {
    /// The search scopes of `type` in this catalogue: the entity's fixed scopes, then one per
    /// distinct value of its ``EntityDescriptor/typeScopeColumn`` (a product type), in folded
    /// order. What a scope bar, `--scope` and its completions offer.
    ///
    /// ```swift
    /// try catalogue.scopes(of: Product.self).map(\.key)  // ["all", "birthdays", "desktop", "device", …]
    /// ```
    public func scopes<R: CatalogueRecord>(of type: R.Type) throws -> [SearchScope] {
        let entity = R.entity
        guard let column = entity.typeScopeColumn else { return entity.scopes }
        return entity.scopes + (try distinctValues(of: column, in: type)).map(entity.typeScope)
    }

    /// The scope of `type` named `key`, compared ignoring case and diacritics (nil: the
    /// default scope). With `browsing`, only scopes with a sectioned list are accepted.
    ///
    /// Throws ``SearchScopeError`` for a key that names no scope (listing the valid ones), or
    /// a search-only scope when `browsing`. Only a type scope reads the catalogue.
    ///
    /// ```swift
    /// try catalogue.scope("Device", of: Product.self).typeValue   // "device"
    /// try catalogue.scope("any", of: Country.self, browsing: true)  // throws: for searching only
    /// ```
    public func scope<R: CatalogueRecord>(_ key: String?, of type: R.Type, browsing: Bool = false) throws -> SearchScope {
        let entity = R.entity
        guard let key else { return entity.defaultScope }
        let folded = Folding.fold(key)
        var scope = entity.scopes.first { Folding.fold($0.key) == folded }
        var all = entity.scopes
        if scope == nil, entity.typeScopeColumn != nil {
            all = try scopes(of: type)
            scope = all.first { Folding.fold($0.key) == folded }
        }
        let valid = browsing ? all.filter(\.isBrowsable) : all
        guard let scope else {
            throw SearchScopeError(scope: key, entity: entity.entity, validScopes: valid.map(\.key))
        }
        guard !browsing || scope.isBrowsable else {
            throw SearchScopeError(scope: key, entity: entity.entity, validScopes: valid.map(\.key), isSearchOnly: true)
        }
        return scope
    }

    /// The distinct values of `column` of `type`, one per folded value (the smallest as
    /// stored), in folded order.
    func distinctValues<R: Record>(of column: String, in type: R.Type) throws -> [String] {
        let schema = R.schema
        let key = schema.keyColumn(for: column) ?? column
        let sql = SQLFragment("SELECT min(\(column)) FROM \(schema.table) GROUP BY \(key) ORDER BY \(key)")
        return try engine.reading { db in
            var values: [String] = []
            try db.forEachRow(sql) { row in
                if let value = try row.decodeOptionalText(at: 0) { values.append(value) }
            }
            return values
        }
    }
}
