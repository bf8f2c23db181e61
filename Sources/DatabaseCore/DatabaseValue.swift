#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value as SQLite stores it: NULL, a 64-bit integer, a double, UTF-8 text, or a blob.
///
/// ```swift
/// let values: [DatabaseValue] = [.null, .integer(42), .real(2.5), .text("Bogotá"), .blob(Data([0, 1]))]
/// ```
///
/// SQLite has no NaN: binding `Double.nan` stores NULL.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL NULL: no value.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// Text, stored as UTF-8.
    case text(String)
    /// Bytes, stored as they are.
    case blob(Data)

    /// Whether the value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): String(reflecting: value)
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

/// A Swift type that converts to and from a ``DatabaseValue``.
///
/// ```swift
/// let year: Int? = row["year"]
/// try statement.bind([2007, "iPhone", 599.0])
/// ```
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored value, or nil if it cannot be represented.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { self }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { .integer(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let int): int
        case .real(let double): Int64(exactly: double)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { isNaN ? .null : .real(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let int): Double(int)
        case .real(let double): double
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        Int64.fromDatabaseValue(value).map { $0 != 0 }
    }
}

extension String: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { .text(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Data: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue { .blob(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    @inlinable public var databaseValue: DatabaseValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.databaseValue
        }
    }

    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
