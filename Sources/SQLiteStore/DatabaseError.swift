import CSQLite

/// An error reported by SQLite: its result codes, its message, and the statement that failed.
///
/// The statement's arguments are kept only when the connection is configured with
/// ``Configuration/publicStatementArguments``, because they may hold user data.
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO product (name) VALUES (?)", ["Widget"])
/// } catch let error as DatabaseError {
///     print(error.resultCode)          // 19 (constraint failed)
///     print(error.extendedResultCode)  // 1299 (NOT NULL constraint failed)
///     print(error.message)             // "NOT NULL constraint failed: product.name_key"
///     print(error.sql ?? "")           // "INSERT INTO product (name) VALUES (?)"
/// }
/// ```
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (e.g. `SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedResultCode: ResultCode
    /// The error message from SQLite, or SQLite's description of the code when there is none.
    public let message: String
    /// The SQL of the statement that failed, if a statement failed.
    public let sql: String?
    /// The statement's arguments, present only when the connection makes them public.
    public let arguments: [DatabaseValue]?

    /// The primary result code (e.g. `SQLITE_CONSTRAINT`).
    public var resultCode: ResultCode {
        extendedResultCode.primaryResultCode
    }

    /// Creates an error. `message` defaults to SQLite's description of `code`.
    public init(
        code: ResultCode,
        message: String? = nil,
        sql: String? = nil,
        arguments: [DatabaseValue]? = nil
    ) {
        self.extendedResultCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code.rawValue))
        self.sql = sql
        self.arguments = arguments
    }

    /// One line: "SQLite error 19: UNIQUE constraint failed: country.code - while executing `…`".
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue): \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        if let arguments, !arguments.isEmpty {
            text += " with arguments \(arguments)"
        }
        return text
    }
}
