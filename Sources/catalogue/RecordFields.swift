import CatalogueKit

/// One printed field of a record: its JSON/CSV key, its table header and its value.
struct RecordField {
    let key: String
    let header: String
    let value: DatabaseValue
    /// Table text for the value ("599.00" for prices), control characters escaped.
    let display: String
    /// Numbers align right in tables.
    let isNumeric: Bool

    init(_ key: String, _ header: String, _ value: DatabaseValue, display: String? = nil) {
        self.key = key
        self.header = header
        self.value = value
        let shown: String = switch value {
        case .null: display ?? ""
        case .integer(let integer): display ?? String(integer)
        case .real(let real): display ?? String(real)
        case .text(let text): display ?? text
        case .blob(let data): display ?? "<\(data.count) bytes>"
        }
        self.display = TerminalText.escaped(shown)
        switch value {
        case .integer, .real: isNumeric = true
        default: isNumeric = false
        }
    }
}

extension Country {
    /// The fields `catalogue search` prints.
    var searchFields: [RecordField] {
        [
            RecordField("code", "Code", .text(code)),
            RecordField("name", "Name", .text(name)),
            RecordField("capital", "Capital", capital.databaseValue),
            RecordField("continent", "Continent", continent.databaseValue),
            RecordField("population", "Population", population.databaseValue,
                        display: population.map(NumberText.grouped)),
            RecordField("area_km2", "Area (km²)", areaKm2.databaseValue,
                        display: areaKm2.map(NumberText.area)),
        ]
    }
}

extension Product {
    /// The fields `catalogue search` prints.
    var searchFields: [RecordField] {
        [
            RecordField("id", "ID", id.databaseValue),
            RecordField("name", "Name", .text(name)),
            RecordField("type", "Type", .text(type)),
            RecordField("year", "Year", year.databaseValue),
            RecordField("price", "Price", price.databaseValue, display: price.map(NumberText.price)),
        ]
    }
}

/// Number formatting for tables, independent of the locale.
enum NumberText {
    /// 1234567 → "1,234,567".
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// 599 → "599.00".
    static func price(_ value: Double) -> String {
        let cents = (value * 100).rounded()
        guard cents.magnitude < 1e15 else { return String(value) }
        let whole = Int64(cents) / 100
        let fraction = Int64(cents.magnitude) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// 1138910 → "1,138,910"; 0.49 → "0.49".
    static func area(_ value: Double) -> String {
        if value == value.rounded(), value.magnitude < 1e15 {
            return grouped(Int64(value))
        }
        return String(value)
    }
}
