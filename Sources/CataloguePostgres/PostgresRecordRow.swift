#if PostgreSQL
import CatalogueCore
import Foundation
import PostgresNIO

/// A row of a PostgreSQL result, read by column index as records decode themselves
/// (``Record/init(row:)``): the engine's ``DatabaseRow``.
///
/// Rows are decoded on the thread that called the engine (a dispatch thread under the
/// catalogue's `async` methods), never hopping to the caller's actor per row.
///
/// ```swift
/// let country = try Country(row: PostgresRecordRow(row, sql: query.sql))
/// ```
public struct PostgresRecordRow: DatabaseRow {
    @usableFromInline let cells: PostgresRandomAccessRow
    @usableFromInline let sql: String

    /// A view of `row`, read by `sql` (named in decoding errors).
    public init(_ row: PostgresRow, sql: String) {
        self.cells = row.makeRandomAccess()
        self.sql = sql
    }

    public var count: Int { cells.count }

    public func value(at index: Int) -> DatabaseValue {
        guard index >= 0, index < cells.count else { return .null }
        let cell = cells[index]
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8:
            return (try? cell.decode(Int64.self)).map { .integer($0) } ?? .null
        case .bool:
            return (try? cell.decode(Bool.self)).map { .integer($0 ? 1 : 0) } ?? .null
        case .float4, .float8, .numeric:
            return (try? cell.decode(Double.self)).map { .real($0) } ?? .null
        case .bytea:
            return (try? cell.decode(ByteBuffer.self)).map { .blob(Data($0.readableBytesView)) } ?? .null
        default:
            if let text = try? cell.decode(String.self) { return .text(text) }
            return cell.bytes.map { .blob(Data($0.readableBytesView)) } ?? .null
        }
    }

    @inlinable
    public func decodeText(at index: Int) throws -> String {
        let cell = try self.cell(at: index, type: "String")
        guard cell.bytes != nil else { throw decodingError(at: index, type: "String") }
        do { return try cell.decode(String.self) } catch { throw decodingError(at: index, type: "String") }
    }

    @inlinable
    public func decodeOptionalText(at index: Int) throws -> String? {
        let cell = try self.cell(at: index, type: "Optional<String>")
        guard cell.bytes != nil else { return nil }
        do { return try cell.decode(String.self) } catch { throw decodingError(at: index, type: "Optional<String>") }
    }

    @inlinable
    public func decodeInteger(at index: Int) throws -> Int64 {
        let cell = try self.cell(at: index, type: "Int64")
        guard cell.bytes != nil else { throw decodingError(at: index, type: "Int64") }
        return try integer(cell, at: index, type: "Int64")
    }

    @inlinable
    public func decodeOptionalInteger(at index: Int) throws -> Int64? {
        let cell = try self.cell(at: index, type: "Optional<Int64>")
        guard cell.bytes != nil else { return nil }
        return try integer(cell, at: index, type: "Optional<Int64>")
    }

    @inlinable
    public func decodeReal(at index: Int) throws -> Double {
        let cell = try self.cell(at: index, type: "Double")
        guard cell.bytes != nil else { throw decodingError(at: index, type: "Double") }
        return try real(cell, at: index, type: "Double")
    }

    @inlinable
    public func decodeOptionalReal(at index: Int) throws -> Double? {
        let cell = try self.cell(at: index, type: "Optional<Double>")
        guard cell.bytes != nil else { return nil }
        return try real(cell, at: index, type: "Optional<Double>")
    }

    public func decodingError(at index: Int, type: String) -> RowDecodingError {
        guard index >= 0, index < cells.count else {
            return RowDecodingError(column: "#\(index)", value: nil, type: type, sql: sql)
        }
        return RowDecodingError(column: cells[index].columnName, value: value(at: index), type: type, sql: sql)
    }

    @usableFromInline
    func cell(at index: Int, type: String) throws -> PostgresCell {
        guard index >= 0, index < cells.count else { throw decodingError(at: index, type: type) }
        return cells[index]
    }

    /// An integer column, a floating-point one holding a whole number (as SQLite converts), or a
    /// boolean (1 or 0).
    @usableFromInline
    func integer(_ cell: PostgresCell, at index: Int, type: String) throws -> Int64 {
        switch cell.dataType {
        case .int2, .int4, .int8:
            if let value = try? cell.decode(Int64.self) { return value }
        case .float4, .float8, .numeric:
            if let value = try? cell.decode(Double.self), let exact = Int64(exactly: value) { return exact }
        case .bool:
            if let value = try? cell.decode(Bool.self) { return value ? 1 : 0 }
        default:
            break
        }
        throw decodingError(at: index, type: type)
    }

    /// A floating-point column, or an integer one.
    @usableFromInline
    func real(_ cell: PostgresCell, at index: Int, type: String) throws -> Double {
        switch cell.dataType {
        case .float4, .float8, .numeric:
            if let value = try? cell.decode(Double.self) { return value }
        case .int2, .int4, .int8:
            if let value = try? cell.decode(Int64.self) { return Double(value) }
        default:
            break
        }
        throw decodingError(at: index, type: type)
    }
}

extension SQLFragment {
    /// The fragment as postgres-nio's query: its text (`$n` placeholders) and bindings.
    var postgresQuery: PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            bindings.append(argument)
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

extension PostgresBindings {
    /// Appends a ``DatabaseValue``: an integer as int8, a real as float8, text as text, a blob
    /// as bytea, NULL untyped. NaN is bound as NULL, as SQLite binds it: PostgreSQL's NaN is
    /// greater than every number, so `price < NaN` held for every priced row.
    mutating func append(_ value: DatabaseValue) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): append(integer)
        case .real(let real) where real.isNaN: appendNull()
        case .real(let real): append(real)
        case .text(let text): append(text)
        case .blob(let data): append(ByteBuffer(bytes: data))
        }
    }
}
#endif
