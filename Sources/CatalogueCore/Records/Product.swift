/// A product of the catalogue: a name, a free-text type, the year it came out and its price.
///
/// ```swift
/// let iPhone = Product(name: "iPhone", type: "device", year: 2007, price: 599)
/// ```
public struct Product: CatalogueRecord, Hashable {
    public var id: Int64?
    /// The name ("iPad mini"); unique within its type.
    public var name: String
    /// The type ("device", "weddings"), free text, compared case-insensitively.
    public var type: String
    /// The year introduced.
    public var year: Int?
    /// The introductory price.
    public var price: Double?

    /// A product with a name and a type (`id` is nil until it is stored).
    public init(id: Int64? = nil, name: String, type: String, year: Int? = nil, price: Double? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.year = year
        self.price = price
    }

    /// The products entity: name, type, year and price; the list shows the id too; the scopes
    /// are all products, then one per type; looked up by id.
    public static let entity = EntityDescriptor<Product>(
        entity: .products, singular: "product", plural: "products",
        fields: [
            FieldDescriptor("name", label: "Name", \.name),
            FieldDescriptor("type", label: "Type", listWidth: 10, \.type),
            FieldDescriptor("year", label: "Year", listWidth: 4, \.year),
            FieldDescriptor("price", label: "Price", format: .price, listWidth: 10, \.price),
        ],
        listFields: ["id", "name", "type", "year", "price"],
        compactListFields: ["name", "type", "year", "price"],
        scopes: [SearchScope(key: "all", title: "All")], typeScopeColumn: "type",
        lookup: .id)

    public static let schema = RecordSchema(
        table: "product",
        columns: entity.columnNames,
        naturalKey: ["name", "type_key"],
        foldedColumns: ["name": "name_key", "type": "type_key"],
        fullTextTable: "product_fts",
        fullTextColumns: ["name"],
        substringIndexedColumns: ["name_key"])

    @inlinable
    public init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        type = try row.decode(at: 2)
        year = try row.decode(at: 3)
        price = try row.decode(at: 4)
    }

    public var databaseValues: [DatabaseValue] {
        Self.entity.values(of: self)
    }

    /// The request for products matching `text` in scope `scope` (`all`, or a type).
    public static func searchRequest(matching text: String, scope: String?, mode: MatchMode) throws -> FetchRequest<Product> {
        CatalogueSearch.products(matching: text, scope: scope.map(ProductScope.init(parsing:)) ?? .all, mode: mode)
    }

    public static func suggestions(for text: String, scope: String?, in db: some CatalogueReading) throws -> [String] {
        try CatalogueSearch.suggestions(for: text, scope: scope.map(ProductScope.init(parsing:)) ?? .all, in: db)
    }
}
