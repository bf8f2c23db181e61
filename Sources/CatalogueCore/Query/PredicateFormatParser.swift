/// A predicate format string could not be parsed.
///
/// ```swift
/// do { _ = try FetchPredicate(format: "name BEGINSWITH") }
/// catch let error as PredicateFormatError {
///     print(error)  // at position 16 of "name BEGINSWITH": expected a value, found the end
/// }
/// ```
public struct PredicateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format string.
    public let format: String
    /// Offset of the problem in the format, in characters from 0.
    public let position: Int
    /// What the parser expected there.
    public let expected: String
    /// What it found ("the end" at the end).
    public let found: String

    public var description: String {
        "at position \(position) of \(String(reflecting: format)): expected \(expected), found \(found)"
    }
}

extension FetchPredicate {
    /// Parses an NSPredicate format string.
    ///
    /// Supported: comparisons `==` `=` `!=` `<>` `<` `<=` `=<` `>` `>=` `=>`, `BEGINSWITH`,
    /// `ENDSWITH`, `CONTAINS`, `LIKE` (`*` and `?` wildcards), `MATCHES` (a regular expression),
    /// `IN {…}` and `BETWEEN {lower, upper}`, each string operator with `[c]`, `[d]` or `[cd]`;
    /// `ANY aliases …` (also `SOME`) for the to-many aliases; `AND` `&&`, `OR` `||`, `NOT` `!`,
    /// parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`; keys as bare names or `%K`; values as `%@`
    /// (also `%d`, `%f`, `%s`), substitution variables `$NAME` (filled in later by
    /// ``withSubstitutionVariables(_:)``), quoted strings, numbers, `TRUE`/`YES`, `FALSE`/`NO`,
    /// `NIL`/`NULL`. Keywords are case-insensitive.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@", "name", "bog")
    /// let both = try FetchPredicate(format: "(name CONTAINS[c] 'land') AND NOT population < %@", 1_000_000)
    /// let listed = try FetchPredicate(format: "code IN %@", ["FR", "DE"])
    /// let wildcard = try FetchPredicate(format: "name LIKE[cd] 'bo*a'")
    /// let alias = try FetchPredicate(format: "ANY aliases BEGINSWITH[cd] %@", "ivory")
    /// let template = try FetchPredicate(format: "capital BEGINSWITH[cd] $TEXT")
    /// ```
    ///
    /// Throws ``PredicateFormatError`` (with the position and what was expected) for bad format
    /// and for arguments that do not fit their placeholder.
    public init(format: String, _ arguments: any Sendable...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an NSPredicate format string with an array of arguments.
    public init(format: String, argumentArray: [any Sendable]) throws {
        var parser = PredicateFormatParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }
}

/// Recursive-descent parser for NSPredicate format strings.
struct PredicateFormatParser {
    private let format: String
    private let characters: [Character]
    private var position = 0
    private var arguments: [any Sendable]
    private var argumentIndex = 0
    /// How many parentheses and `NOT`s enclose the position: the parser refuses to go deeper
    /// than ``FetchPredicate/maximumNestingDepth``, so no format can exhaust its stack.
    private var nesting = 0

    init(format: String, arguments: [any Sendable]) {
        self.format = format
        self.characters = Array(format)
        self.arguments = arguments
    }

    mutating func parse() throws -> FetchPredicate {
        let predicate = try parseOr()
        skipWhitespace()
        guard position == characters.count else {
            throw error(expected: "AND, OR or the end")
        }
        guard argumentIndex == arguments.count else {
            throw PredicateFormatError(
                format: format, position: characters.count,
                expected: "\(argumentIndex) argument(s) for the placeholders", found: "\(arguments.count)")
        }
        return predicate
    }

    // MARK: - Grammar

    private mutating func parseOr() throws -> FetchPredicate {
        var alternatives = [try parseAnd()]
        while consumeKeyword("OR") || consumeSymbol("||") {
            alternatives.append(try parseAnd())
        }
        return alternatives.count == 1 ? alternatives[0] : .or(alternatives)
    }

    private mutating func parseAnd() throws -> FetchPredicate {
        var conjuncts = [try parseNot()]
        while consumeKeyword("AND") || consumeSymbol("&&") {
            conjuncts.append(try parseNot())
        }
        return conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts)
    }

    private mutating func parseNot() throws -> FetchPredicate {
        skipWhitespace()
        let start = position
        if consumeKeyword("NOT") {
            return .not(try nested(from: start) { try $0.parseNot() })
        }
        if peek == "!", peek(at: 1) != "=" {
            position += 1
            return .not(try nested(from: start) { try $0.parseNot() })
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> FetchPredicate {
        skipWhitespace()
        let start = position
        if consumeSymbol("(") {
            let inner = try nested(from: start) { try $0.parseOr() }
            guard consumeSymbol(")") else { throw error(expected: "')'") }
            return inner
        }
        if consumeKeyword("TRUEPREDICATE") { return .true }
        if consumeKeyword("FALSEPREDICATE") { return .false }
        return try parseComparison()
    }

    /// Parses what a `(` or `NOT` at `start` encloses, one level deeper; throws when that is
    /// deeper than ``FetchPredicate/maximumNestingDepth``.
    private mutating func nested(
        from start: Int, _ parse: (inout PredicateFormatParser) throws -> FetchPredicate
    ) throws -> FetchPredicate {
        guard nesting < FetchPredicate.maximumNestingDepth else {
            throw PredicateFormatError(
                format: format, position: start,
                expected: "at most \(FetchPredicate.maximumNestingDepth) nested parentheses and NOTs",
                found: "one more")
        }
        nesting += 1
        defer { nesting -= 1 }
        return try parse(&self)
    }

    private mutating func parseComparison() throws -> FetchPredicate {
        if consumeKeyword("ANY") || consumeKeyword("SOME") {
            return try parseAnyAlias()
        }
        let column = try parseKey()
        skipWhitespace()
        let operatorPosition = position
        if consumeKeyword("BETWEEN") {
            let bounds = try parseList()
            guard bounds.count == 2 else {
                throw PredicateFormatError(
                    format: format, position: operatorPosition,
                    expected: "BETWEEN with two values {lower, upper}", found: "\(bounds.count) value(s)")
            }
            return .between(column: column, lower: bounds[0], upper: bounds[1])
        }
        if consumeKeyword("IN") {
            let options = try parseOptions()
            if let variable = try parseVariable() {
                return .substitution(.inList(column: column, options: options), variable: variable)
            }
            return .in(column: column, values: try parseList(), options: options)
        }
        guard let op = parseOperator() else {
            throw error(expected: "an operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN)")
        }
        let options = try parseOptions()
        if let variable = try parseVariable() {
            return .substitution(.comparison(column: column, operator: op, options: options), variable: variable)
        }
        let value = try parseValue()
        return .comparison(column: column, operator: op, value: value, options: options)
    }

    /// After `ANY`/`SOME`: `aliases OPERATOR[options] value`, the record's to-many aliases.
    private mutating func parseAnyAlias() throws -> FetchPredicate {
        skipWhitespace()
        let keyPosition = position
        let key = try parseKey()
        guard key == "aliases" else {
            throw PredicateFormatError(
                format: format, position: keyPosition, expected: "aliases (the to-many key ANY applies to)", found: "'\(key)'")
        }
        skipWhitespace()
        guard let op = parseOperator() else {
            throw error(expected: "an operator (==, !=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES)")
        }
        let options = try parseOptions()
        if let variable = try parseVariable() {
            return .substitution(.anyAlias(operator: op, options: options), variable: variable)
        }
        let valuePosition = position
        guard case .text(let text) = try parseValue() else {
            throw PredicateFormatError(format: format, position: valuePosition, expected: "a text value for ANY aliases", found: "another value")
        }
        return .anyAlias(operator: op, value: text, options: options)
    }

    /// `$NAME`: a substitution variable, or nil when the next token is not one.
    private mutating func parseVariable() throws -> String? {
        skipWhitespace()
        guard peek == "$" else { return nil }
        position += 1
        guard let name = parseIdentifier(), !name.contains(".") else {
            throw error(expected: "a variable name after $")
        }
        return name
    }

    private mutating func parseKey() throws -> String {
        skipWhitespace()
        if consumeSymbol("%K") {
            let start = position - 2
            guard let key = try nextArgument(at: start) as? String else {
                throw PredicateFormatError(format: format, position: start, expected: "a String argument for %K", found: describeArgument(argumentIndex - 1))
            }
            guard !key.isEmpty else {
                throw PredicateFormatError(format: format, position: start, expected: "a non-empty key for %K", found: "\"\"")
            }
            return key
        }
        guard let identifier = parseIdentifier() else {
            throw error(expected: "a key (a name or %K)")
        }
        return identifier
    }

    private mutating func parseOperator() -> ComparisonOperator? {
        let symbols: [(String, ComparisonOperator)] = [
            ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<=", .lessThanOrEqual), ("=<", .lessThanOrEqual),
            (">=", .greaterThanOrEqual), ("=>", .greaterThanOrEqual), ("<", .lessThan), (">", .greaterThan), ("=", .equal),
        ]
        for (symbol, op) in symbols where consumeSymbol(symbol) {
            return op
        }
        for op in [ComparisonOperator.beginsWith, .endsWith, .contains, .like, .matches] where consumeKeyword(op.rawValue) {
            return op
        }
        return nil
    }

    /// `[c]`, `[d]`, `[cd]` or `[dc]` directly after an operator.
    private mutating func parseOptions() throws -> ComparisonOptions {
        guard peek == "[" else { return [] }
        let start = position
        position += 1
        var options: ComparisonOptions = []
        while let character = peek, character != "]" {
            switch character.lowercased() {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw error(expected: "c or d in the options [cd]")
            }
            position += 1
        }
        guard consumeSymbol("]") else {
            throw PredicateFormatError(format: format, position: start, expected: "options closed by ']'", found: "the end")
        }
        return options
    }

    /// `{a, b, …}` or a placeholder bound to an array.
    private mutating func parseList() throws -> [DatabaseValue] {
        skipWhitespace()
        if let placeholderStart = consumePlaceholder() {
            let argument = try nextArgument(at: placeholderStart)
            guard let array = argument as? [any Sendable] else {
                throw PredicateFormatError(format: format, position: placeholderStart, expected: "an array argument", found: describeArgument(argumentIndex - 1))
            }
            return try array.map { try databaseValue($0, at: placeholderStart) }
        }
        guard consumeSymbol("{") else { throw error(expected: "'{' or an array placeholder %@") }
        var values: [DatabaseValue] = []
        if consumeSymbol("}") { return values }
        repeat {
            values.append(try parseValue())
        } while consumeSymbol(",")
        guard consumeSymbol("}") else { throw error(expected: "',' or '}'") }
        return values
    }

    private mutating func parseValue() throws -> DatabaseValue {
        skipWhitespace()
        if let placeholderStart = consumePlaceholder() {
            return try databaseValue(try nextArgument(at: placeholderStart), at: placeholderStart)
        }
        if let quote = peek, quote == "'" || quote == "\"" {
            return .text(try parseQuoted(quote))
        }
        if let number = parseNumber() {
            return number
        }
        for (keyword, value) in [("TRUE", DatabaseValue.integer(1)), ("YES", .integer(1)), ("FALSE", .integer(0)),
                                 ("NO", .integer(0)), ("NIL", .null), ("NULL", .null)] where consumeKeyword(keyword) {
            return value
        }
        throw error(expected: "a value (%@, a quoted string, a number, TRUE, FALSE or NIL)")
    }

    // MARK: - Lexing

    private var peek: Character? {
        position < characters.count ? characters[position] : nil
    }

    private func peek(at offset: Int) -> Character? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    private mutating func skipWhitespace() {
        while let character = peek, character.isWhitespace { position += 1 }
    }

    private mutating func consumeSymbol(_ symbol: String) -> Bool {
        skipWhitespace()
        let symbolCharacters = Array(symbol)
        guard position + symbolCharacters.count <= characters.count,
              Array(characters[position..<position + symbolCharacters.count]) == symbolCharacters
        else { return false }
        position += symbolCharacters.count
        return true
    }

    /// A case-insensitive keyword not followed by an identifier character.
    private mutating func consumeKeyword(_ keyword: String) -> Bool {
        skipWhitespace()
        let keywordCharacters = Array(keyword.uppercased())
        let end = position + keywordCharacters.count
        guard end <= characters.count,
              characters[position..<end].map({ Character($0.uppercased()) }) == keywordCharacters
        else { return false }
        if end < characters.count, isIdentifierCharacter(characters[end]) { return false }
        position = end
        return true
    }

    /// A placeholder (%@, %d, %i, %f, %s, %ld, %lf); returns its start.
    private mutating func consumePlaceholder() -> Int? {
        skipWhitespace()
        guard peek == "%" else { return nil }
        let start = position
        for placeholder in ["%@", "%ld", "%lf", "%lld", "%d", "%i", "%f", "%s"] where consumeSymbol(placeholder) {
            return start
        }
        return nil
    }

    private mutating func parseIdentifier() -> String? {
        skipWhitespace()
        guard let first = peek, first.isLetter || first == "_" else { return nil }
        var identifier = ""
        while let character = peek, isIdentifierCharacter(character) || character == "." {
            identifier.append(character)
            position += 1
        }
        return identifier
    }

    private func isIdentifierCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private mutating func parseQuoted(_ quote: Character) throws -> String {
        let start = position
        position += 1
        var text = ""
        while let character = peek {
            position += 1
            if character == quote { return text }
            if character == "\\", let escaped = peek {
                position += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                default: text.append(escaped)
                }
            } else {
                text.append(character)
            }
        }
        throw PredicateFormatError(format: format, position: start, expected: "a closing \(quote)", found: "the end")
    }

    private mutating func parseNumber() -> DatabaseValue? {
        skipWhitespace()
        let start = position
        var text = ""
        if peek == "-" || peek == "+" { text.append(peek!); position += 1 }
        while let character = peek, character.isASCII, character.isNumber || character == "." || character == "e" || character == "E"
            || ((character == "-" || character == "+") && (text.last == "e" || text.last == "E")) {
            text.append(character)
            position += 1
        }
        if let integer = Int64(text) { return .integer(integer) }
        if let double = Double(text), text.contains(where: \.isNumber) { return .real(double) }
        position = start
        return nil
    }

    // MARK: - Arguments

    private mutating func nextArgument(at position: Int) throws -> any Sendable {
        guard argumentIndex < arguments.count else {
            throw PredicateFormatError(format: format, position: position, expected: "an argument for this placeholder", found: "none")
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    private func databaseValue(_ argument: any Sendable, at position: Int) throws -> DatabaseValue {
        if let convertible = argument as? any DatabaseValueConvertible {
            return convertible.databaseValue
        }
        if let integer = argument as? any BinaryInteger, let value = Int64(exactly: integer) {
            return .integer(value)
        }
        if let float = argument as? Float {
            return .real(Double(float))
        }
        throw PredicateFormatError(format: format, position: position, expected: "a string, number, data or nil argument", found: "\(type(of: argument))")
    }

    private func describeArgument(_ index: Int) -> String {
        guard index >= 0, index < arguments.count else { return "none" }
        return "\(type(of: arguments[index])) \(String(reflecting: arguments[index]))"
    }

    private func error(expected: String) -> PredicateFormatError {
        var probe = self
        probe.skipWhitespace()
        let found: String
        if probe.position >= characters.count {
            found = "the end"
        } else {
            let rest = characters[probe.position...].prefix { !$0.isWhitespace }
            found = "'" + String(rest.prefix(20)) + "'"
        }
        return PredicateFormatError(format: format, position: probe.position, expected: expected, found: found)
    }
}
