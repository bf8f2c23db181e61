/// A substitution variable's value does not fit where the variable stands, or is missing.
public struct SubstitutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable's name, without `$`.
    public let variable: String
    /// What is wrong.
    public let reason: String

    public var description: String {
        "$\(variable): \(reason)"
    }
}

extension FetchPredicate {
    /// The predicate with its substitution variables (`$NAME` in a format string) replaced by
    /// values, as `NSPredicate.withSubstitutionVariables(_:)` does: a template is parsed once,
    /// and each keystroke fills it in, so the compiled SQL (and the prepared statement) is the
    /// same every time.
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "name BEGINSWITH[cd] $TEXT OR ANY aliases BEGINSWITH[cd] $TEXT")
    /// let predicate = try template.withSubstitutionVariables(["TEXT": "ivo"])
    /// ```
    ///
    /// Variables without a value in `variables` stay (and a request with one fails to compile,
    /// naming it); a value of the wrong kind (not an array for `IN`, not a text or number)
    /// throws ``SubstitutionError``.
    public func withSubstitutionVariables(_ variables: [String: any Sendable]) throws -> FetchPredicate {
        switch self {
        case .and(let predicates):
            return .and(try predicates.map { try $0.withSubstitutionVariables(variables) })
        case .or(let predicates):
            return .or(try predicates.map { try $0.withSubstitutionVariables(variables) })
        case .not(let inner):
            return .not(try inner.withSubstitutionVariables(variables))
        case .substitution(let site, let variable):
            guard let argument = variables[variable] else { return self }
            switch site {
            case .comparison(let column, let op, let options):
                return .comparison(column: column, operator: op, value: try Self.value(argument, variable), options: options)
            case .inList(let column, let options):
                guard let array = argument as? [any Sendable] else {
                    throw SubstitutionError(variable: variable, reason: "IN needs an array, got \(type(of: argument))")
                }
                return .in(column: column, values: try array.map { try Self.value($0, variable) }, options: options)
            case .anyAlias(let op, let options):
                guard case .text(let text) = try Self.value(argument, variable) else {
                    throw SubstitutionError(variable: variable, reason: "ANY aliases compares text, got \(type(of: argument))")
                }
                return .anyAlias(operator: op, value: text, options: options)
            }
        default:
            return self
        }
    }

    /// The names of the substitution variables still in the predicate, in order of appearance.
    public var substitutionVariables: [String] {
        switch self {
        case .and(let predicates), .or(let predicates): predicates.flatMap(\.substitutionVariables)
        case .not(let inner): inner.substitutionVariables
        case .substitution(_, let variable): [variable]
        default: []
        }
    }

    private static func value(_ argument: any Sendable, _ variable: String) throws -> DatabaseValue {
        if let convertible = argument as? any DatabaseValueConvertible { return convertible.databaseValue }
        if let integer = argument as? any BinaryInteger, let value = Int64(exactly: integer) { return .integer(value) }
        throw SubstitutionError(variable: variable, reason: "not a text, number or nil value: \(type(of: argument))")
    }
}

extension FetchRequest {
    /// The request with its predicate's substitution variables replaced (see
    /// ``FetchPredicate/withSubstitutionVariables(_:)``).
    ///
    /// ```swift
    /// let template = FetchRequest<Country>(
    ///     predicate: try FetchPredicate(format: "capital BEGINSWITH[cd] $TEXT"), sortDescriptors: .byName)
    /// let request = try template.withSubstitutionVariables(["TEXT": "bog"])
    /// ```
    public func withSubstitutionVariables(_ variables: [String: any Sendable]) throws -> FetchRequest {
        var request = self
        request.predicate = try predicate.withSubstitutionVariables(variables)
        return request
    }
}
