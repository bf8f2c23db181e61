/// A row of a query result, as a database engine presents it: columns read by index.
///
/// Engines conform their row types (SQLiteStore's `Row`, the PostgreSQL engine's row), and
/// records decode themselves from any of them with the same code:
///
/// ```swift
/// init(row: some DatabaseRow) throws {
///     id = try row.decode(at: 0)      // Int64?
///     name = try row.decode(at: 1)    // String
///     year = try row.decode(at: 2)    // Int?
/// }
/// ```
///
/// The requirements are the typed reads records use most, so an engine can read each straight
/// from its buffers; the `decode(_:at:)` overloads pick them by the type asked for, and any other
/// ``DatabaseValueConvertible`` type goes through ``value(at:)``.
public protocol DatabaseRow {
    /// How many columns the row has.
    var count: Int { get }
    /// The value of the column at `index`.
    func value(at index: Int) -> DatabaseValue
    /// The column at `index` as text; throws ``RowDecodingError`` for NULL or another type.
    func decodeText(at index: Int) throws -> String
    /// The column at `index` as text, nil for NULL.
    func decodeOptionalText(at index: Int) throws -> String?
    /// The column at `index` as an integer (a real that holds a whole number converts).
    func decodeInteger(at index: Int) throws -> Int64
    /// The column at `index` as an integer, nil for NULL.
    func decodeOptionalInteger(at index: Int) throws -> Int64?
    /// The column at `index` as a double (an integer converts).
    func decodeReal(at index: Int) throws -> Double
    /// The column at `index` as a double, nil for NULL.
    func decodeOptionalReal(at index: Int) throws -> Double?
    /// The error for a column that cannot be read as `type` (names the column and the query).
    func decodingError(at index: Int, type: String) -> RowDecodingError
}

extension DatabaseRow {
    /// The column at `index` as text.
    @inlinable
    public func decode(_ type: String.Type = String.self, at index: Int) throws -> String {
        try decodeText(at: index)
    }

    /// The column at `index` as text, nil for NULL.
    @inlinable
    public func decode(_ type: String?.Type = String?.self, at index: Int) throws -> String? {
        try decodeOptionalText(at: index)
    }

    /// The column at `index` as an integer.
    @inlinable
    public func decode(_ type: Int64.Type = Int64.self, at index: Int) throws -> Int64 {
        try decodeInteger(at: index)
    }

    /// The column at `index` as an integer, nil for NULL.
    @inlinable
    public func decode(_ type: Int64?.Type = Int64?.self, at index: Int) throws -> Int64? {
        try decodeOptionalInteger(at: index)
    }

    /// The column at `index` as an `Int`.
    @inlinable
    public func decode(_ type: Int.Type = Int.self, at index: Int) throws -> Int {
        guard let int = Int(exactly: try decodeInteger(at: index)) else { throw decodingError(at: index, type: "Int") }
        return int
    }

    /// The column at `index` as an `Int`, nil for NULL.
    @inlinable
    public func decode(_ type: Int?.Type = Int?.self, at index: Int) throws -> Int? {
        guard let value = try decodeOptionalInteger(at: index) else { return nil }
        guard let int = Int(exactly: value) else { throw decodingError(at: index, type: "Optional<Int>") }
        return int
    }

    /// The column at `index` as a double.
    @inlinable
    public func decode(_ type: Double.Type = Double.self, at index: Int) throws -> Double {
        try decodeReal(at: index)
    }

    /// The column at `index` as a double, nil for NULL.
    @inlinable
    public func decode(_ type: Double?.Type = Double?.self, at index: Int) throws -> Double? {
        try decodeOptionalReal(at: index)
    }

    /// The column at `index` converted to any ``DatabaseValueConvertible`` type.
    @inlinable
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard let decoded = T.fromDatabaseValue(value(at: index)) else {
            throw decodingError(at: index, type: "\(T.self)")
        }
        return decoded
    }

    /// Every column value, in order.
    public var values: [DatabaseValue] {
        (0..<count).map { value(at: $0) }
    }
}

/// A row's column could not be converted to the requested Swift type, or does not exist.
public struct RowDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column name.
    public let column: String
    /// The stored value, or nil when the column does not exist.
    public let value: DatabaseValue?
    /// The Swift type requested.
    public let type: String
    /// The SQL of the statement.
    public let sql: String

    /// An error reading `column` (holding `value`, nil when missing) as `type`, in `sql`.
    public init(column: String, value: DatabaseValue?, type: String, sql: String) {
        self.column = column
        self.value = value
        self.type = type
        self.sql = sql
    }

    public var description: String {
        if let value {
            return "column \(column): cannot read \(value) as \(type) - while reading `\(sql)`"
        }
        return "no column named \(column) - while reading `\(sql)`"
    }
}
