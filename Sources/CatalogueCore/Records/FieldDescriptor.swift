/// One field of a record type, as every layer sees it: its column (and JSON/CSV key), its label
/// for people, how its values are shown, and how to read it from a record.
///
/// A record type lists its fields once, in its ``EntityDescriptor``; the schema's columns, the
/// stored values, JSON coding, the CLI's tables, the terminal UI and the server's items are all
/// derived from that list.
///
/// ```swift
/// FieldDescriptor<Product>("price", label: "Price", format: .price, \.price)
/// ```
public struct FieldDescriptor<R>: Sendable {
    /// The column, and the key in JSON and CSV (`area_km2`).
    public let name: String
    /// The label people see (table headers, detail pages): "Area (km²)".
    public let label: String
    /// How values are shown to people.
    public let format: FieldFormat
    /// Whether values are numbers (tables align them right).
    public let isNumeric: Bool
    /// The cells a column of this field takes in a fixed-width list (the terminal UI); nil for
    /// a column that takes the room the others leave.
    public let listWidth: Int?
    /// The stored value of this field of `record`.
    public let value: @Sendable (R) -> DatabaseValue

    /// The value types of fields that are numbers (so tables align them right). Compared by
    /// type, not found by a cast to a protocol: a cast's first use per type has the Swift
    /// runtime scan every protocol conformance record of the binary (about 1.5 % of a cold
    /// `catalogue search`, which describes the countries' 20 fields).
    private static var numericTypes: [Any.Type] {
        [Int.self, Int64.self, Double.self, Int?.self, Int64?.self, Double?.self]
    }

    /// A field read through `path`.
    public init<Value: DatabaseValueConvertible & SendableMetatype>(
        _ name: String, label: String, format: FieldFormat = .plain, listWidth: Int? = nil,
        _ path: KeyPath<R, Value> & Sendable
    ) {
        self.name = name
        self.label = label
        self.format = format
        self.isNumeric = Self.numericTypes.contains { $0 == Value.self }
        self.listWidth = listWidth
        self.value = { $0[keyPath: path].databaseValue }
    }

    /// A field whose stored value `value` computes.
    public init(
        _ name: String, label: String, format: FieldFormat = .plain, isNumeric: Bool = false,
        listWidth: Int? = nil, value: @escaping @Sendable (R) -> DatabaseValue
    ) {
        self.name = name
        self.label = label
        self.format = format
        self.isNumeric = isNumeric
        self.listWidth = listWidth
        self.value = value
    }

    /// The value of this field of `record` as people read it ("49,648,685", "599.00", "" for NULL).
    public func text(of record: R) -> String {
        format.text(value(record))
    }
}

/// How a field's values are shown to people. Independent of the locale: the same text on every
/// machine.
///
/// ```swift
/// FieldFormat.grouped.text(.integer(49648685))  // "49,648,685"
/// FieldFormat.price.text(.real(599))            // "599.00"
/// ```
public enum FieldFormat: String, Sendable, Hashable {
    /// As stored.
    case plain
    /// Whole numbers with thousands separators.
    case grouped
    /// Two decimals.
    case price
    /// Whole areas grouped, others as they are.
    case area

    /// The text of `value` in this format; NULL is "".
    public func text(_ value: DatabaseValue) -> String {
        switch (self, value) {
        case (_, .null): ""
        case (.grouped, .integer(let integer)), (.area, .integer(let integer)): Self.grouped(integer)
        case (.price, .real(let real)): Self.price(real)
        case (.price, .integer(let integer)): Self.price(Double(integer))
        case (.area, .real(let real)): Self.area(real)
        case (_, .integer(let integer)): String(integer)
        case (_, .real(let real)): String(real)
        case (_, .text(let text)): text
        case (_, .blob(let data)): "<\(data.count) bytes>"
        }
    }

    /// 1234567 → "1,234,567".
    public static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// 599 → "599.00".
    public static func price(_ value: Double) -> String {
        let cents = (value * 100).rounded()
        guard cents.magnitude < 1e15 else { return String(value) }
        let whole = Int64(cents) / 100
        let fraction = Int64(cents.magnitude) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// 1138910 → "1,138,910"; 0.49 → "0.49".
    public static func area(_ value: Double) -> String {
        if value == value.rounded(), value.magnitude < 1e15 {
            return grouped(Int64(value))
        }
        return String(value)
    }
}
