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
    /// The fields a narrow list shows (a terminal's full-screen list, a phone-width page), in
    /// order; the title field first.
    public let compactListFields: [FieldDescriptor<R>]
    /// The field that names a record to people: a detail page's title, a list's first column.
    public let titleField: FieldDescriptor<R>
    /// The fixed search scopes, the default first. Products add one scope per type (``typeScopeColumn``).
    public let scopes: [SearchScope]
    /// The column whose distinct values are scopes of their own (`type` for products), if any.
    public let typeScopeColumn: String?
    /// What identifies one record to people (`catalogue show CO`, `GET /api/countries/CO`).
    public let lookup: RecordLookup

    /// An entity's description: its names, fields, list columns, scopes and how a record is
    /// looked up. `titleField`, `listFields` and every scope's fields must name fields in
    /// `fields`.
    public init(
        entity: CatalogueEntity, singular: String, plural: String, fields: [FieldDescriptor<R>],
        listFields: [String], compactListFields: [String]? = nil, titleField: String = "name",
        scopes: [SearchScope], typeScopeColumn: String? = nil, lookup: RecordLookup
    ) {
        self.entity = entity
        self.singular = singular
        self.plural = plural
        self.fields = fields
        let byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func field(_ name: String) -> FieldDescriptor<R> {
            if name == "id" {
                return FieldDescriptor<R>("id", label: "ID", isNumeric: true, listWidth: 6) { $0.id.databaseValue }
            }
            guard let field = byName[name] else { preconditionFailure("no field \(name) in \(entity)") }
            return field
        }
        self.listFields = listFields.map(field)
        self.compactListFields = (compactListFields ?? listFields).map(field)
        self.titleField = field(titleField)
        precondition(!scopes.isEmpty, "\(entity) has no search scope")
        self.scopes = scopes
        self.typeScopeColumn = typeScopeColumn
        self.lookup = lookup
    }

    /// The names of the stored fields, in order: the table's columns.
    public var columnNames: [String] {
        fields.map(\.name)
    }

    /// The stored field named `name` (or `id`), if there is one.
    public func field(named name: String) -> FieldDescriptor<R>? {
        (fields + listFields).first { $0.name == name }
    }

    /// "1 country", "250 countries" (numbers grouped: "1,000,000 products").
    public func count(_ number: Int) -> String {
        "\(FieldFormat.grouped(Int64(number))) \(number == 1 ? singular : plural)"
    }

    /// The stored values of `record`, in column order.
    public func values(of record: R) -> [DatabaseValue] {
        fields.map { $0.value(record) }
    }

    /// The default scope: the first.
    public var defaultScope: SearchScope {
        scopes[0]
    }

    /// The scope of the records whose ``typeScopeColumn`` is `value` (products of type
    /// "device"): it matches and orders as the default scope does.
    ///
    /// ```swift
    /// Product.entity.typeScope("device")  // key "device", title "Device"
    /// ```
    public func typeScope(_ value: String) -> SearchScope {
        SearchScope(
            key: value, title: value.prefix(1).uppercased() + value.dropFirst(),
            matchedFields: defaultScope.matchedFields, orderField: defaultScope.orderField, typeValue: value)
    }

    /// The sectioned list of `scope` (`catalogue browse`, the terminal UI's browse list): every
    /// record of the scope that has a value in its ``SearchScope/orderField``, in the scope's
    /// order (``FetchSortDescriptor/by(_:)``), so sections follow that field's initial letter.
    ///
    /// ```swift
    /// Country.entity.browseRequest(Country.entity.scopes[1])  // countries with a capital, by capital
    /// ```
    public func browseRequest(_ scope: SearchScope) -> FetchRequest<R> {
        var conditions: [FetchPredicate] = []
        if scope.orderField != titleField.name {
            conditions.append(.notEquals(scope.orderField, nil))
        }
        if let value = scope.typeValue, let column = typeScopeColumn {
            conditions.append(.equals(column, value, options: .caseAndDiacriticInsensitive))
        }
        let predicate: FetchPredicate = conditions.isEmpty ? .true : conditions.count == 1 ? conditions[0] : .and(conditions)
        return FetchRequest(predicate: predicate, sortDescriptors: FetchSortDescriptor.by(scope.orderField))
    }
}

/// A search scope: which field(s) a search reads, as people choose it in a scope bar.
///
/// ```swift
/// SearchScope(key: "capital", title: "Capital", matchedFields: ["capital"], orderField: "capital")
/// ```
public struct SearchScope: Sendable, Hashable {
    /// The scope as typed (`--scope capital`, `?scope=capital`).
    public let key: String
    /// The scope as shown ("Capital").
    public let title: String
    /// The fields whose text the scope's search matches (a country's name scope: `name` and
    /// `aliases`), so a list can show what matched.
    public let matchedFields: [String]
    /// The field results are ordered by (folded), and a sectioned list is sectioned by.
    public let orderField: String
    /// Whether the scope has a sectioned list of its own (`catalogue browse`); false for a
    /// scope that only searches (a country's `any`: name or capital, no single order).
    public let isBrowsable: Bool
    /// For a scope of one type (``EntityDescriptor/typeScope(_:)``), that type's value.
    public let typeValue: String?

    /// A scope with its key and title, matching `matchedFields` and ordered by `orderField`.
    public init(
        key: String, title: String, matchedFields: [String] = ["name"], orderField: String = "name",
        isBrowsable: Bool = true, typeValue: String? = nil
    ) {
        self.key = key
        self.title = title
        self.matchedFields = matchedFields
        self.orderField = orderField
        self.isBrowsable = isBrowsable
        self.typeValue = typeValue
    }
}

/// What identifies a record to people.
public enum RecordLookup: Sendable, Hashable {
    /// A text column of `length` letters, compared in upper case (a country's `code`: "CO",
    /// "co"); `example` is shown in messages.
    case code(column: String, length: Int, example: String)
    /// The row id (a product's id).
    case id

    /// `key` as stored (a code in upper case), or nil when it cannot name a record: not
    /// `length` ASCII letters, or not a whole number for an id.
    ///
    /// ```swift
    /// RecordLookup.code(column: "code", length: 2, example: "CO").normalizedKey("co")  // "CO"
    /// RecordLookup.id.normalizedKey("ipad")                                              // nil
    /// ```
    public func normalizedKey(_ key: String) -> String? {
        switch self {
        case .code(_, let length, _):
            let upper = key.uppercased()
            let isLetters = upper.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            return upper.utf8.count == length && isLetters ? upper : nil
        case .id:
            return key.allSatisfy(\.isASCII) ? Int64(key).map { String($0) } : nil
        }
    }

    /// What a key looks like, for messages: "two letters, e.g. CO", "a number".
    public var keyDescription: String {
        switch self {
        case .code(_, let length, let example):
            let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
            let count = words.indices.contains(length) ? words[length] : String(length)
            return "\(count) letter\(length == 1 ? "" : "s"), e.g. \(example)"
        case .id:
            return "a number"
        }
    }

    /// The request for the record `key` names (after ``normalizedKey(_:)``).
    public func request<R: Record>(for key: String, of type: R.Type = R.self) -> FetchRequest<R> {
        switch self {
        case .code(let column, _, _):
            FetchRequest(predicate: .equals(column, key), sortDescriptors: [], fetchLimit: 1)
        case .id:
            FetchRequest(predicate: .equals("id", Int64(key) ?? -1), sortDescriptors: [], fetchLimit: 1)
        }
    }
}
