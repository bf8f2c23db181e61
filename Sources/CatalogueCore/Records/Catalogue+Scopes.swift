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

    /// How many records each of `scopes` holds, for `request(scope)` (a search for the text
    /// typed, or a scope's sectioned list), counted without loading them: a scope bar's counts
    /// ("Name 12 · Capital 3").
    ///
    /// A fixed scope is counted with its own request. The type scopes (``SearchScope/typeValue``)
    /// are counted as `counting` says: each with its own request (an index on the type and the
    /// key answers a prefix search per type at once), or all together with one count of the
    /// default scope's request grouped by the type column (a full-text or substring search,
    /// which reads every match anyway, is then evaluated once instead of once per type).
    /// ``TypeScopeCounting/automatic`` picks by the request's predicate. Grouping needs a type
    /// scope's request to be the default scope's limited to the type, as
    /// ``CatalogueRecord/searchRequest(matching:scope:mode:)`` and
    /// ``EntityDescriptor/browseRequest(_:)`` are.
    ///
    /// ```swift
    /// let scopes = try catalogue.scopes(of: Product.self)
    /// try catalogue.counts(of: scopes) { try Product.searchRequest(matching: "ip", scope: $0.key, mode: .prefix) }
    /// // [3, 0, 0, 3, 0, 0, 0]
    /// ```
    public func counts<R: CatalogueRecord>(
        of scopes: [SearchScope], counting: TypeScopeCounting = .automatic,
        _ request: (SearchScope) throws -> FetchRequest<R>
    ) throws -> [Int] {
        try counts(of: scopes, counting: counting, limit: .exact, request)
    }

    /// The number of records in each scope, counting each no further than `limit` says: with
    /// ``CountLimit/capped(at:)``, every scope is counted on its own and stops after the cap,
    /// so a count above the cap is `cap + 1`, meaning "more than the cap" (grouping would read
    /// every match). ``CountLimit/exact`` counts as ``counts(of:counting:_:)`` does.
    ///
    /// ```swift
    /// try catalogue.counts(of: scopes, limit: .capped(at: 10_000)) { try Product.searchRequest(matching: "a", scope: $0.key, mode: .contains) }
    /// // [10001, 10001, 3, …]: more than 10,000 in the first two scopes
    /// ```
    public func counts<R: CatalogueRecord>(
        of scopes: [SearchScope], counting: TypeScopeCounting = .automatic, limit: CountLimit,
        _ request: (SearchScope) throws -> FetchRequest<R>
    ) throws -> [Int] {
        if let cap = limit.cap {
            return try scopes.map { scope in
                let counted = try request(scope)
                return try engine.reading { try $0.fetchCount(counted, stoppingAfter: cap + 1) }
            }
        }
        let entity = R.entity
        var byType: [String: Int]?
        let groups: Bool
        switch counting {
        case .eachScope: groups = false
        case .grouped: groups = true
        case .automatic: groups = try request(entity.defaultScope).predicate.readsEveryCandidate
        }
        return try scopes.map { scope in
            guard groups, let value = scope.typeValue, let column = entity.typeScopeColumn else {
                return try fetchCount(request(scope))
            }
            let key = R.schema.keyColumn(for: column)
            if byType == nil {
                byType = try fetchCounts(request(entity.defaultScope), groupedBy: key ?? column)
            }
            // Keys are stored folded (``Folding/fold(_:options:)``).
            return byType?[key == nil ? value : Folding.fold(value)] ?? 0
        }
    }

    /// The distinct values of `column` of `type`, one per folded value (as stored in the first
    /// row of that value in the key's index), in folded order.
    ///
    /// The distinct keys come from the key's index by a loose index scan: each the least key
    /// after the one before, one seek each (a recursive query, on SQLite and PostgreSQL alike),
    /// and one row is read per key. 1 ms for 8 types among 1,000,000 products here, where
    /// `SELECT DISTINCT type_key` read the whole index (45 ms: SQLite skips ahead only with
    /// `ANALYZE`'s statistics, which a catalogue does not keep) and `min(type) … GROUP BY
    /// type_key` every row (4 s). Needs an index that starts with the key, as every folded key
    /// of ``Record`` has.
    func distinctValues<R: Record>(of column: String, in type: R.Type) throws -> [String] {
        let schema = R.schema
        let table = schema.table
        let key = schema.keyColumn(for: column) ?? column
        let sql = SQLFragment("""
            WITH RECURSIVE keys(\(key)) AS (\
            SELECT min(\(key)) FROM \(table) \
            UNION ALL SELECT (SELECT min(\(key)) FROM \(table) WHERE \(key) > keys.\(key)) FROM keys WHERE keys.\(key) IS NOT NULL) \
            SELECT (SELECT \(column) FROM \(table) AS one WHERE one.\(key) = keys.\(key) LIMIT 1) \
            FROM keys WHERE keys.\(key) IS NOT NULL ORDER BY keys.\(key)
            """)
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

/// How ``Catalogue/counts(of:counting:_:)`` counts the type scopes.
public enum TypeScopeCounting: Sendable, Hashable {
    /// Grouped for full-text and substring searches, each scope on its own otherwise.
    case automatic
    /// One count per type scope.
    case eachScope
    /// One count grouped by the type column for all type scopes.
    case grouped
}

extension FetchPredicate {
    /// Whether the predicate holds a condition no index range answers (full-text, CONTAINS,
    /// ENDSWITH, LIKE, MATCHES), so counting it reads every candidate row.
    var readsEveryCandidate: Bool {
        switch self {
        case .fullText: true
        case .comparison(_, let op, _, _), .anyAlias(let op, _, _):
            op == .contains || op == .endsWith || op == .matches || op == .like
        case .and(let predicates), .or(let predicates): predicates.contains { $0.readsEveryCandidate }
        case .not(let predicate): predicate.readsEveryCandidate
        case .between, .in, .true, .false, .substitution: false
        }
    }
}
