/// Everything the layers need to know about one of the catalogue's entities, in one place: its
/// fields (and so its table's columns), the fields a list shows, its search scopes, what
/// identifies one record to people, and its nouns.
///
/// The library derives ``RecordSchema/columns`` and ``Record/databaseValues`` from it; the CLI,
/// the terminal UI and the server print, list, scope and look up records through it, so adding
/// an entity touches one place per layer.
///
/// ```swift
/// let countries = Country.entity
/// countries.listFields.map(\.label)  // ["Code", "Name", "Capital", "Continent", "Population", "Area (km²)"]
/// countries.scopes.map(\.key)        // ["name", "capital", "any"]
/// ```
public struct EntityDescriptor<R: Record>: Sendable {
    /// Which entity.
    public let entity: CatalogueEntity
    /// "country", "product".
    public let singular: String
    /// "countries", "products".
    public let plural: String
    /// The stored fields, in column order (``RecordSchema/columns``).
    public let fields: [FieldDescriptor<R>]
    /// The fields a list of results shows, in order (`catalogue search`, the page's rows).
    public let listFields: [FieldDescriptor<R>]
    /// The fixed search scopes, the default first. Products add one scope per type (``typeScopeColumn``).
    public let scopes: [SearchScope]
    /// The column whose distinct values are scopes of their own (`type` for products), if any.
    public let typeScopeColumn: String?
    /// What identifies one record to people (`catalogue show CO`, `GET /api/countries/CO`).
    public let lookup: RecordLookup

    public init(
        entity: CatalogueEntity, singular: String, plural: String, fields: [FieldDescriptor<R>],
        listFields: [String], scopes: [SearchScope], typeScopeColumn: String? = nil, lookup: RecordLookup
    ) {
        self.entity = entity
        self.singular = singular
        self.plural = plural
        self.fields = fields
        let byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.listFields = listFields.map { name in
            if name == "id" {
                return FieldDescriptor<R>("id", label: "ID", isNumeric: true) { $0.id.databaseValue }
            }
            guard let field = byName[name] else { preconditionFailure("no field \(name) in \(entity)") }
            return field
        }
        self.scopes = scopes
        self.typeScopeColumn = typeScopeColumn
        self.lookup = lookup
    }

    /// The names of the stored fields, in order: the table's columns.
    public var columnNames: [String] {
        fields.map(\.name)
    }

    /// "1 country", "250 countries" (numbers grouped: "1,000,000 products").
    public func count(_ number: Int) -> String {
        "\(FieldFormat.grouped(Int64(number))) \(number == 1 ? singular : plural)"
    }

    /// The stored values of `record`, in column order.
    public func values(of record: R) -> [DatabaseValue] {
        fields.map { $0.value(record) }
    }
}

/// A search scope: which field(s) a search reads, as people choose it in a scope bar.
///
/// ```swift
/// SearchScope(key: "capital", title: "Capital")
/// ```
public struct SearchScope: Sendable, Hashable {
    /// The scope as typed (`--scope capital`, `?scope=capital`).
    public let key: String
    /// The scope as shown ("Capital").
    public let title: String

    public init(key: String, title: String) {
        self.key = key
        self.title = title
    }
}

/// What identifies a record to people.
public enum RecordLookup: Sendable, Hashable {
    /// A text column, compared in upper case (a country's `code`: "CO", "co").
    case code(column: String)
    /// The row id (a product's id).
    case id
}
