/// The current row of a statement being stepped: read its columns by index or by name.
///
/// A `Row` is a view: it reads whatever row its statement is on, so use it inside the closure
/// that receives it and copy out what you keep.
///
/// ```swift
/// let products = try db.fetchAll("SELECT name, year, price FROM product") { row in
///     (name: try row.decode(String.self, named: "name"), year: try row.decode(Int?.self, named: "year"))
/// }
/// ```
public struct Row: DatabaseRow {
    /// The statement whose current row this is.
    public let statement: Statement

    /// A view of the row `statement` is on.
    @inlinable
    public init(statement: Statement) {
        self.statement = statement
    }

    /// How many columns the row has.
    public var count: Int {
        statement.columnCount
    }

    /// The value of the column at `index`.
    public subscript(index: Int) -> DatabaseValue {
        statement.value(at: index)
    }

    /// The value of the column named `name`, or NULL if there is no such column.
    public subscript(name: String) -> DatabaseValue {
        statement.columnIndex(named: name).map { statement.value(at: $0) } ?? .null
    }

    /// The column at `index` converted to `T`.
    ///
    /// Throws ``RowDecodingError`` when the value cannot be represented as `T` (NULL into a
    /// non-optional, text into a number, …).
    @inlinable
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        let value = statement.value(at: index)
        guard let decoded = T.fromDatabaseValue(value) else {
            throw RowDecodingError(column: statement.columnName(at: index), value: value, type: "\(T.self)", sql: statement.sql)
        }
        return decoded
    }

    /// The column named `name` converted to `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, named name: String) throws -> T {
        guard let index = statement.columnIndex(named: name) else {
            throw RowDecodingError(column: name, value: nil, type: "\(T.self)", sql: statement.sql)
        }
        return try decode(type, at: index)
    }
}
