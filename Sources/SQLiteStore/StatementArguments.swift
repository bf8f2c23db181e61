/// The values bound to a statement's parameters: positional (`?`, `?NNN`) or named
/// (`:name`, `@name`, `$name`).
///
/// ```swift
/// try db.execute("INSERT INTO product (name, year) VALUES (?, ?)", ["iPhone", 2007])
/// try db.execute("UPDATE product SET price = :price WHERE id = :id", [":price": 499.0, ":id": 3])
/// ```
public struct StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, CustomStringConvertible
{
    /// Values for positional parameters, in order.
    public var values: [DatabaseValue]
    /// Values for named parameters, keyed by the parameter name including its prefix (`:id`).
    public var namedValues: [String: DatabaseValue]

    /// Positional arguments.
    public init(_ values: [DatabaseValue] = []) {
        self.values = values
        self.namedValues = [:]
    }

    /// Named arguments; each key includes its prefix (`:id`).
    public init(named namedValues: [String: DatabaseValue]) {
        self.values = []
        self.namedValues = namedValues
    }

    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements.map { $0?.databaseValue ?? .null })
    }

    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var named: [String: DatabaseValue] = [:]
        for (name, value) in elements {
            named[name] = value?.databaseValue ?? .null
        }
        self.init(named: named)
    }

    /// Whether there is no value at all.
    public var isEmpty: Bool {
        values.isEmpty && namedValues.isEmpty
    }

    /// Every value, positional first, then named in name order (for error reports).
    var allValues: [DatabaseValue] {
        values + namedValues.sorted { $0.key < $1.key }.map(\.value)
    }

    public var description: String {
        if namedValues.isEmpty {
            return values.description
        }
        return namedValues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.description
    }
}
