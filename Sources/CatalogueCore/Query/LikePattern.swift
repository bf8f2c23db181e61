/// An NSPredicate `LIKE` pattern, parsed: literal text, `*` (any run of characters) and `?`
/// (one character); `\*`, `\?` and `\\` are literal. Each engine writes it in its own syntax
/// (SQLite `GLOB`, PostgreSQL `LIKE … ESCAPE`), with the literal text escaped.
///
/// ```swift
/// LikePattern("Bo*a").parts       // [.literal("Bo"), .anyRun, .literal("a")]
/// LikePattern("Bo*a").literalPrefix  // "Bo"
/// ```
public struct LikePattern: Sendable, Hashable {
    /// A piece of a pattern.
    public enum Part: Sendable, Hashable {
        /// Text that must appear as it is.
        case literal(String)
        /// `*`: any run of characters, empty included.
        case anyRun
        /// `?`: exactly one character.
        case anyCharacter
    }

    /// The pieces, in order; adjacent literals merged.
    public let parts: [Part]

    /// Parses `pattern`. Any text is a pattern: a `\` at the end, escaping nothing, is literal.
    public init(_ pattern: String) {
        var parts: [Part] = []
        var literal = ""
        var escaped = false
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
        // Scalar by scalar: a `*` followed by a combining mark is one Character, but still a
        // wildcard to the engines, which read code points.
        for scalar in pattern.unicodeScalars {
            if escaped {
                literal.unicodeScalars.append(scalar)
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*": flush(); parts.append(.anyRun)
            case "?": flush(); parts.append(.anyCharacter)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        if escaped { literal.append("\\") }
        flush()
        self.parts = parts
    }

    /// The literal text the pattern starts with ("" when it starts with a wildcard).
    public var literalPrefix: String {
        if case .literal(let text)? = parts.first { return text }
        return ""
    }

    /// The pattern as SQLite `GLOB` reads it: `*` and `?` as wildcards, and `*`, `?` and `[` in
    /// literal text each in a bracket class (`[*]`, `[?]`, `[[]`), so they match themselves.
    public var globPattern: String {
        parts.map { part in
            switch part {
            case .anyRun: "*"
            case .anyCharacter: "?"
            case .literal(let text):
                text.unicodeScalars.map { scalar in
                    scalar == "*" || scalar == "?" || scalar == "[" ? "[\(scalar)]" : String(scalar)
                }.joined()
            }
        }.joined()
    }

    /// The pattern as SQL `LIKE … ESCAPE '\'` reads it: `%` and `_` as wildcards, and `%`, `_`
    /// and `\` in literal text escaped with `\`.
    public var sqlLikePattern: String {
        parts.map { part in
            switch part {
            case .anyRun: "%"
            case .anyCharacter: "_"
            case .literal(let text):
                text.unicodeScalars.map { scalar in
                    scalar == "%" || scalar == "_" || scalar == "\\" ? "\\\(scalar)" : String(scalar)
                }.joined()
            }
        }.joined()
    }
}
