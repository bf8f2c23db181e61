#if PostgreSQL
import CatalogueCore

/// A row held in memory, `id` then the stored columns, for decoding a record whose values an
/// import merged in Swift (the stored record's values where the file had no column, the file's
/// elsewhere), so its keys and tsvector words are computed from the merged record.
///
/// ```swift
/// let merged = try Product(row: MergedValuesRow(id: 7, values: [.text("Lamp"), .text("home"), .integer(2002), .null]))
/// ```
struct MergedValuesRow: DatabaseRow {
    let values: [DatabaseValue]

    /// `id` (nil for a record not stored yet), then `values` in the schema's column order.
    init(id: Int64?, values: [DatabaseValue]) {
        self.values = [id.map { .integer($0) } ?? .null] + values
    }

    /// The values of an import row that lacks some columns applied to `base` (the stored record's
    /// values, or the previous row's of the same natural key): `row`'s where `assigned`, `base`'s
    /// elsewhere. One value and one flag per stored column.
    static func merge(_ row: [DatabaseValue], into base: [DatabaseValue], assigned: [Bool]) -> [DatabaseValue] {
        precondition(row.count == base.count && assigned.count == base.count, "one value and one flag per stored column")
        return base.indices.map { assigned[$0] ? row[$0] : base[$0] }
    }

    var count: Int { values.count }

    func value(at index: Int) -> DatabaseValue {
        values.indices.contains(index) ? values[index] : .null
    }

    func decodeText(at index: Int) throws -> String {
        guard let text = try decodeOptionalText(at: index) else { throw decodingError(at: index, type: "String") }
        return text
    }

    func decodeOptionalText(at index: Int) throws -> String? {
        switch value(at: index) {
        case .null: return nil
        case .text(let text): return text
        default: throw decodingError(at: index, type: "Optional<String>")
        }
    }

    func decodeInteger(at index: Int) throws -> Int64 {
        guard let integer = try decodeOptionalInteger(at: index) else { throw decodingError(at: index, type: "Int64") }
        return integer
    }

    func decodeOptionalInteger(at index: Int) throws -> Int64? {
        switch value(at: index) {
        case .null: return nil
        case .integer(let integer): return integer
        case .real(let real):
            guard let exact = Int64(exactly: real) else { throw decodingError(at: index, type: "Optional<Int64>") }
            return exact
        default: throw decodingError(at: index, type: "Optional<Int64>")
        }
    }

    func decodeReal(at index: Int) throws -> Double {
        guard let real = try decodeOptionalReal(at: index) else { throw decodingError(at: index, type: "Double") }
        return real
    }

    func decodeOptionalReal(at index: Int) throws -> Double? {
        switch value(at: index) {
        case .null: return nil
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw decodingError(at: index, type: "Optional<Double>")
        }
    }

    func decodingError(at index: Int, type: String) -> RowDecodingError {
        RowDecodingError(
            column: "#\(index)", value: values.indices.contains(index) ? values[index] : nil, type: type,
            sql: "(values merged by an import)")
    }
}
#endif
