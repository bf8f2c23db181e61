/// A column an import file may have.
///
/// ```swift
/// ImportColumn("name", required: true)   // must be present, and every value non-empty
/// ImportColumn("id", ignored: true)      // accepted, not read
/// ```
public struct ImportColumn: Sendable, Hashable {
    /// The column name, as in a CSV header or a JSON key (`area_km2`).
    public let name: String
    /// Whether a file must have this column, and every row a value in it.
    public let isRequired: Bool
    /// Whether the column is accepted but not read.
    public let isIgnored: Bool

    /// A column called `name`, optional and read unless `required` or `ignored` says otherwise.
    public init(_ name: String, required: Bool = false, ignored: Bool = false) {
        self.name = name
        self.isRequired = required
        self.isIgnored = ignored
    }
}

/// A ``Record`` that can be read from an import file (CSV, JSON, NDJSON) and written to an
/// export file.
///
/// `Country` and `Product` conform. The columns are matched by name, in any order; a file with an
/// unknown column is refused with the list of known ones.
///
/// ```swift
/// extension City: ImportableRecord {
///     static let importColumns = [ImportColumn("name", required: true), ImportColumn("country_code", required: true)]
///     static let exportColumns = ["name", "country_code"]
///     init(importing row: ImportRow) throws(ImportFieldError) {
///         self.init(name: try row.requiredText(at: 0), countryCode: try row.requiredText(at: 1))
///     }
/// }
/// ```
public protocol ImportableRecord: Record {
    /// The columns a file may have. ``ImportRow`` values come in this order.
    static var importColumns: [ImportColumn] { get }

    /// The columns an export writes, in order: `id` or names of ``RecordSchema/columns``.
    static var exportColumns: [String] { get }

    /// The record of one row, with every value checked. Throws ``ImportFieldError`` naming the
    /// column at fault and why ("year", "not a whole number: \"20x7\"").
    init(importing row: ImportRow) throws(ImportFieldError)
}

/// A value of an import row that cannot be stored, and why.
///
/// ```swift
/// throw ImportFieldError(column: "price", reason: "must not be negative: -5")
/// ```
public struct ImportFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column at fault.
    public let column: String
    /// Why the value was refused.
    public let reason: String

    /// An error in `column`'s value, saying why it was refused.
    public init(column: String, reason: String) {
        self.column = column
        self.reason = reason
    }

    public var description: String {
        "\(column): \(reason)"
    }
}
