import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A compiled SQL statement: bind arguments, step through rows, read columns.
///
/// ```swift
/// let statement = try db.cachedStatement("SELECT name, year FROM product WHERE year >= ?")
/// try statement.bind([2007])
/// while try statement.step() {
///     print(statement.string(at: 0), statement.int64(at: 1))
/// }
/// ```
///
/// Statements belong to their ``Connection`` and share its thread rules.
public final class Statement {
    /// The SQL the statement was compiled from.
    public let sql: String
    /// Whether running the statement changes the schema (CREATE, DROP, ALTER).
    public let changesSchema: Bool
    /// Whether a value was bound since the bindings were last cleared.
    private var hasBindings = false
    /// Set while a row loop of the connection's fetch methods reads this statement.
    @usableFromInline var isReadingRows = false

    @usableFromInline let handle: OpaquePointer
    unowned let connection: Connection
    /// Whether the statement only reads (fixed when it is compiled): stepping such a statement
    /// needs no look at its connection's write guard, which saves a reference count per row.
    private let onlyReads: Bool
    private var arguments = StatementArguments()
    private lazy var columnIndexes: (exact: [String: Int], folded: [String: Int]) = {
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        for index in 0..<columnCount {
            let name = columnName(at: index)
            if exact[name] == nil { exact[name] = index }
            if folded[name.lowercased()] == nil { folded[name.lowercased()] = index }
        }
        return (exact, folded)
    }()

    init(handle: OpaquePointer, connection: Connection, sql: String, changesSchema: Bool) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
        self.changesSchema = changesSchema
        self.onlyReads = sqlite3_stmt_readonly(handle) != 0
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Whether the statement only reads the database.
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    /// How many parameters (`?`, `:name`) the statement has.
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// How many columns each row has.
    public var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The columns' names, in order.
    public var columnNames: [String] {
        (0..<columnCount).map(columnName(at:))
    }

    /// The name of the column at `index`.
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The index of the column named `name` (exact match first, then case-insensitive).
    public func columnIndex(named name: String) -> Int? {
        columnIndexes.exact[name] ?? columnIndexes.folded[name.lowercased()]
    }

    /// How many times SQLite re-compiled this statement because the schema or a bound value that
    /// the query plan depends on changed (`SQLITE_STMTSTATUS_REPREPARE`).
    public var reprepareCount: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    /// How many times this statement has run to completion or been reset
    /// (`SQLITE_STMTSTATUS_RUN`).
    public var runCount: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_RUN, 0))
    }

    /// How many virtual machine operations this statement has performed since it was compiled
    /// (`SQLITE_STMTSTATUS_VM_STEP`): a measure of the work a query did that does not depend on
    /// the machine's speed, such as how many index entries it read.
    ///
    /// ```swift
    /// let statement = try db.makeStatement("SELECT count(*) FROM country")
    /// _ = try statement.step()
    /// statement.virtualMachineSteps  // grows with the rows counted
    /// ```
    public var virtualMachineSteps: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 0))
    }

    // MARK: - Binding

    /// Resets the statement and binds `arguments`, replacing every earlier binding.
    ///
    /// Throws `SQLITE_RANGE` when the number of positional arguments differs from
    /// ``parameterCount``, or when a named argument has no parameter.
    public func bind(_ arguments: StatementArguments) throws {
        reset()
        clearBindings()
        if connection.configuration.publicStatementArguments {
            self.arguments = arguments
        }
        if arguments.namedValues.isEmpty {
            guard arguments.values.count == parameterCount else {
                throw DatabaseError(
                    code: .SQLITE_RANGE,
                    message: "wrong number of statement arguments: expected \(parameterCount), got \(arguments.values.count)",
                    sql: sql, arguments: publicArguments(arguments))
            }
        }
        for (offset, value) in arguments.values.enumerated() {
            try bind(value, at: offset + 1)
        }
        for (name, value) in arguments.namedValues {
            let index = Int(sqlite3_bind_parameter_index(handle, name))
            guard index > 0 else {
                throw DatabaseError(
                    code: .SQLITE_RANGE, message: "no statement parameter named \(name)",
                    sql: sql, arguments: publicArguments(arguments))
            }
            try bind(value, at: index)
        }
    }

    /// Binds one value to the parameter at `index` (1-based), without resetting other bindings.
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let position = Int32(index)
        hasBindings = true
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, position, integer)
        case .real(let double):
            code = double.isNaN
                ? sqlite3_bind_null(handle, position)
                : sqlite3_bind_double(handle, position, double)
        case .text(let text):
            var text = text
            code = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    // A nil pointer would bind NULL; bind an empty C string instead.
                    return sqlite3_bind_text64(handle, position, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text64(handle, position, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, position, 0)
                }
                return sqlite3_bind_blob64(handle, position, base, UInt64(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else {
            throw connection.makeError(code: code, sql: sql, arguments: arguments)
        }
    }

    private func publicArguments(_ arguments: StatementArguments) -> [DatabaseValue]? {
        connection.configuration.publicStatementArguments ? arguments.allValues : nil
    }

    // MARK: - Running

    /// Advances to the next row. Returns `true` when a row is available, `false` when done.
    @discardableResult
    public func step() throws -> Bool {
        if !onlyReads, connection.writesForbidden > 0 {
            throw Connection.readOnlyError(sql: sql)
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            if changesSchema { connection.schemaDidChange() }
            return false
        default:
            let error = connection.makeError(code: code, sql: sql, arguments: arguments)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Sets every parameter back to NULL (a no-op when none is bound).
    func clearBindings() {
        guard hasBindings else { return }
        sqlite3_clear_bindings(handle)
        hasBindings = false
    }

    /// Resets the statement so it can run again; bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `arguments` (unless empty and the statement has no parameter) and runs the statement
    /// to completion, ignoring rows.
    public func execute(_ arguments: StatementArguments = []) throws {
        if !arguments.isEmpty || parameterCount > 0 {
            try bind(arguments)
        } else {
            reset()
        }
        defer { reset() }
        while try step() {}
    }

    // MARK: - Reading the current row

    /// The value of column `index` of the current row.
    public func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(string(at: index))
        case SQLITE_BLOB: return .blob(data(at: index))
        default: return .null
        }
    }

    /// Whether column `index` of the current row is NULL.
    @inlinable
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` as an integer (0 for NULL, converted for other types as SQLite does).
    @inlinable
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// Column `index` as a double (0 for NULL, converted for other types as SQLite does).
    @inlinable
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// Column `index` as text ("" for NULL). Embedded NUL characters are kept; invalid UTF-8 is
    /// repaired with U+FFFD.
    @inlinable
    public func string(at index: Int) -> String {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (empty for NULL).
    public func data(at index: Int) -> Data {
        let column = Int32(index)
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Data(bytes: bytes, count: count)
    }
}
