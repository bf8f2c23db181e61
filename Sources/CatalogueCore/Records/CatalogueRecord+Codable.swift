/// JSON coding of the catalogue's records from their ``EntityDescriptor``: the keys are the
/// column names (`numeric_code`, `area_km2`), `id` first; decoding checks every value as an
/// import does (``ImportableRecord/init(importing:)``).
///
/// ```swift
/// let data = try JSONEncoder().encode(Product(id: 4, name: "iPad", type: "device", year: 2010, price: 499))
/// // {"id":4,"name":"iPad","type":"device","year":2010,"price":499}
/// let product = try JSONDecoder().decode(Product.self, from: data)
/// ```
extension CatalogueRecord {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        var values: [ImportValue] = []
        for column in Self.importColumns {
            values.append(try Self.importValue(container, FieldKey(column.name)))
        }
        do {
            try self.init(importing: ImportRow(columns: Self.importColumns, values: values))
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [FieldKey(error.column)], debugDescription: error.reason))
        }
        if let id = try container.decodeIfPresent(Int64.self, forKey: FieldKey("id")) {
            self.id = id
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(id, forKey: FieldKey("id"))
        let listColumn = Self.schema.aliases?.joinedColumn
        for field in Self.entity.fields {
            let key = FieldKey(field.name)
            if field.name == listColumn {
                try container.encode(aliases, forKey: key)
                continue
            }
            switch field.value(self) {
            case .null: try container.encodeNil(forKey: key)
            case .integer(let integer): try container.encode(integer, forKey: key)
            case .real(let real): try container.encode(real, forKey: key)
            case .text(let text): try container.encode(text, forKey: key)
            case .blob(let data): try container.encode(Array(data), forKey: key)
            }
        }
    }

    /// The value under `key` as an import reads it: text, a number as written, a list of texts.
    private static func importValue(_ container: KeyedDecodingContainer<FieldKey>, _ key: FieldKey) throws -> ImportValue {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return .null }
        if let text = try? container.decode(String.self, forKey: key) { return .text(text) }
        if let integer = try? container.decode(Int64.self, forKey: key) { return .number(String(integer)) }
        if let real = try? container.decode(Double.self, forKey: key) { return .number(String(real)) }
        if let flag = try? container.decode(Bool.self, forKey: key) { return .boolean(flag) }
        return .array(try container.decode([String].self, forKey: key).map(ImportValue.text))
    }
}

/// A JSON key named by a field.
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
