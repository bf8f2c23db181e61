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
        if let scope = try R.entity.fixedScope(key, browsing: browsing) { return scope }
        let all = try scopes(of: type)
        let folded = Folding.fold(key ?? "")
        if let scope = all.first(where: { Folding.fold($0.key) == folded }) { return scope }
        throw SearchScopeError(
            scope: key ?? "", entity: R.entity.entity, validScopes: all.filter { !browsing || $0.isBrowsable }.map(\.key))
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

extension EntityDescriptor {
    /// The fixed scope named `key` (compared ignoring case and diacritics; nil: the default),
    /// without reading any catalogue; nil when `key` may name a type scope, which only the
    /// catalogue knows. Throws ``SearchScopeError`` for a key that names no scope of an entity
    /// without type scopes, or a search-only scope when `browsing`.
    ///
    /// ```swift
    /// try Country.entity.fixedScope("CAPITAL")?.key  // "capital"
    /// try Product.entity.fixedScope("device")        // nil: a type, if the catalogue has it
    /// ```
    public func fixedScope(_ key: String?, browsing: Bool = false) throws -> SearchScope? {
        guard let key else { return defaultScope }
        let folded = Folding.fold(key)
        let valid = scopes.filter { !browsing || $0.isBrowsable }.map(\.key)
        guard let scope = scopes.first(where: { Folding.fold($0.key) == folded }) else {
            if typeScopeColumn != nil { return nil }
            throw SearchScopeError(scope: key, entity: entity, validScopes: valid)
        }
        guard !browsing || scope.isBrowsable else {
            throw SearchScopeError(scope: key, entity: entity, validScopes: valid, isSearchOnly: true)
        }
        return scope
    }
}
