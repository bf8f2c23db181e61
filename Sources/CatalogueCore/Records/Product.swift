/// A product of the catalogue: a name, a free-text type, the year it came out and its price.
///
/// ```swift
/// let iPhone = Product(name: "iPhone", type: "device", year: 2007, price: 599)
/// ```
public struct Product: Record, Codable, Hashable {
    public var id: Int64?
    /// The name ("iPad mini"); unique within its type.
    public var name: String
    /// The type ("device", "weddings"), free text, compared case-insensitively.
    public var type: String
    /// The year introduced.
    public var year: Int?
    /// The introductory price.
    public var price: Double?

    public init(id: Int64? = nil, name: String, type: String, year: Int? = nil, price: Double? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.year = year
        self.price = price
    }

    public static let schema = RecordSchema(
        table: "product",
        columns: ["name", "type", "year", "price"],
        naturalKey: ["name", "type_key"],
        foldedColumns: ["name": "name_key", "type": "type_key"],
        fullTextTable: "product_fts",
        fullTextColumns: ["name"])

    @inlinable
    public init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        type = try row.decode(at: 2)
        year = try row.decode(at: 3)
        price = try row.decode(at: 4)
    }

    public var databaseValues: [DatabaseValue] {
        [.text(name), .text(type), year.databaseValue, price.databaseValue]
    }
}
