import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Connection {
    /// Registers a Swift function callable from this connection's SQL.
    ///
    /// Functions exist only on the connection that registered them; never use one in the schema
    /// (a view, index, trigger or default), or the database file stops being readable by other
    /// SQLite tools. A thrown error becomes an SQL error with the error's description.
    ///
    /// ```swift
    /// try db.registerFunction("reverse", argumentCount: 1) { arguments in
    ///     guard case .text(let text) = arguments[0] else { return .null }
    ///     return .text(String(text.reversed()))
    /// }
    /// let reversed: String? = try db.scalar("SELECT reverse('abc')")  // "cba"
    /// ```
    public func registerFunction(
        _ name: String,
        argumentCount: Int,
        deterministic: Bool = true,
        _ function: @escaping ([DatabaseValue]) throws -> DatabaseValue
    ) throws {
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), flags, box,
            { context, count, values in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                var arguments: [DatabaseValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    arguments.append(DatabaseValue(sqliteValue: values![index]))
                }
                do {
                    try box.function(arguments).setResult(of: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { box in
                if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            throw makeError(code: code, sql: nil)
        }
    }
}

private final class FunctionBox {
    let function: ([DatabaseValue]) throws -> DatabaseValue

    init(_ function: @escaping ([DatabaseValue]) throws -> DatabaseValue) {
        self.function = function
    }
}

extension DatabaseValue {
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            if let bytes = sqlite3_value_text(value) {
                self = .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
            } else {
                self = .text("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if let bytes = sqlite3_value_blob(value) {
                self = .blob(Data(bytes: bytes, count: count))
            } else {
                self = .blob(Data())
            }
        default:
            self = .null
        }
    }

    func setResult(of context: OpaquePointer?) {
        switch self {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let double):
            sqlite3_result_double(context, double)
        case .text(let text):
            var text = text
            text.withUTF8 { bytes in
                if let base = bytes.baseAddress {
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_result_text64(context, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                } else {
                    sqlite3_result_text(context, "", 0, csqlite_transient())
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, bytes.count > 0 {
                    sqlite3_result_blob64(context, base, UInt64(bytes.count), csqlite_transient())
                } else {
                    sqlite3_result_zeroblob(context, 0)
                }
            }
        }
    }
}
