import CatalogueKit

/// A record `catalogue show` found by its name rather than its key: which entity, the key that
/// shows it (a country's code, a product's id) and its title, for messages that list several.
///
/// ```swift
/// let found = try catalogue.read { try NamedRecord.named("côte d'ivoire", Country.self, in: $0) }
/// // [NamedRecord(entity: .countries, key: "CI", title: "Côte d'Ivoire")]
/// ```
struct NamedRecord: Hashable {
    let entity: CatalogueEntity
    let key: String
    let title: String

    /// "Côte d'Ivoire (CI)".
    var titleAndKey: String { "\(title) (\(key))" }

    init?<R: CatalogueRecord>(_ record: R) {
        let key: String? = switch R.entity.lookup {
        case .code(let column, _, _): R.entity.field(named: column)?.text(of: record)
        case .id: record.id.map { String($0) }
        }
        guard let key else { return nil }
        self.entity = R.entity.entity
        self.key = key
        self.title = R.entity.titleField.text(of: record)
    }

    /// The records of `type` whose name is `name`, ignoring case and diacritics: the fields the
    /// entity's default scope searches (a country's name and its other names), compared whole.
    static func named<R: CatalogueRecord>(_ name: String, _ type: R.Type, in db: some CatalogueReading, limit: Int = 10) throws -> [NamedRecord] {
        let name = CatalogueSearch.normalizedText(name)
        guard !name.isEmpty else { return [] }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        let aliases = R.schema.aliases?.joinedColumn
        let fields = R.entity.defaultScope.matchedFields.map { field -> FetchPredicate in
            field == aliases
                ? .anyAlias(operator: .equal, value: name, options: cd)
                : .comparison(column: field, operator: .equal, value: .text(name), options: cd)
        }
        let request = FetchRequest<R>(predicate: .or(fields), sortDescriptors: FetchSortDescriptor.byName, fetchLimit: limit)
        return try db.fetch(request).compactMap(NamedRecord.init)
    }

    /// Up to `limit` records of `type` that `name` may have meant: those whose title starts
    /// with it, then those with another name that does (the default scope's prefix search),
    /// else those "did you mean" names.
    static func near<R: CatalogueRecord>(_ name: String, _ type: R.Type, in db: some CatalogueReading, limit: Int) throws -> [NamedRecord] {
        var request = try R.searchRequest(matching: name, scope: nil, mode: .prefix)
        request.fetchLimit = limit * 4
        let starting = try db.fetch(request).compactMap(NamedRecord.init)
        if !starting.isEmpty {
            let typed = Folding.fold(CatalogueSearch.normalizedText(name))
            let byTitle = starting.filter { Folding.fold($0.title).hasPrefix(typed) }
            return Array((byTitle + starting.filter { !byTitle.contains($0) }).prefix(limit))
        }
        var close: [NamedRecord] = []
        for suggestion in try R.suggestions(for: name, scope: nil, in: db) where close.count < limit {
            for record in try named(suggestion, type, in: db, limit: 1) where !close.contains(record) {
                close.append(record)
            }
        }
        return close
    }
}
