#if PostgreSQL
import CatalogueCore

/// The checks that keep `MATCHES` on PostgreSQL (POSIX advanced regular expressions) from
/// answering differently than on SQLite (ICU): constructs the two read differently are refused
/// with ``FetchRequestError/unsupported(_:)``.
enum PostgresRegularExpressions {
    /// Escapes that ARE reads otherwise than ICU (`\b` is a backspace in ARE, a word boundary
    /// in ICU) or not at all.
    static let divergentEscapes: Set<Character> = ["b", "B", "p", "P", "Q", "E", "G", "X", "h", "H", "R", "N", "k", "K", "z", "Z", "v", "V", "u", "U", "x", "c", "e", "o"]
    /// Class escapes that ICU reads over all of Unicode and ARE, under `COLLATE "C"`, over ASCII
    /// only: `\w+` matched "Zürich" on SQLite and not here, `\d` an Arabic-Indic digit.
    static let asciiOnlyClassEscapes: Set<Character> = ["w", "W", "d", "D", "s", "S"]

    /// Throws for a pattern using a construct ICU and ARE read differently.
    static func checkPortable(_ pattern: String) throws {
        var previous: Character?
        var escaped = false
        // Inside a bracket expression: how many characters of it were read.
        var bracket: Int?
        for character in pattern.unicodeScalars.map(Character.init) {
            if escaped {
                if divergentEscapes.contains(character) {
                    throw FetchRequestError.unsupported("MATCHES with \\\(character) (PostgreSQL's regular expressions read it differently)")
                }
                if asciiOnlyClassEscapes.contains(character) {
                    throw FetchRequestError.unsupported(
                        "MATCHES with \\\(character) (ASCII only on PostgreSQL, all of Unicode on SQLite; "
                            + "write the characters out, e.g. [0-9])")
                }
                escaped = false
                previous = nil
                bracket = bracket.map { $0 + 1 }
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if let read = bracket {
                // ICU reads `[` inside a class as a nested set, `&&` as an intersection, and a
                // class starting with `:` (`[:alpha:]`) as a Unicode property; ARE as a literal,
                // two ampersands, and the characters themselves.
                let opensClass = read == 0 || (read == 1 && previous == "^")
                if character == "[" || (character == "&" && previous == "&") || (character == ":" && opensClass) {
                    let construct = character == "[" ? "[ inside a [...] class" : character == "&" ? "&& inside a [...] class" : "[:...:]"
                    throw FetchRequestError.unsupported("MATCHES with \(construct) (PostgreSQL's regular expressions read it differently)")
                }
                if character == "]", !opensClass {
                    bracket = nil
                } else {
                    bracket = read + 1
                }
                previous = character
                continue
            }
            if character == "[" {
                bracket = 0
                previous = character
                continue
            }
            if previous == "(", character == "?" {
                // (?: is common to both; (?= and (?! too; the rest (named groups, atomic groups,
                // inline flags, lookbehind) differ.
                previous = "?"
                continue
            }
            if previous == "?", let last = lastGroupCharacter(character) {
                throw FetchRequestError.unsupported("MATCHES with (?\(last) (PostgreSQL's regular expressions read it differently)")
            }
            if character == "+", let previous, "*+?}".contains(previous) {
                throw FetchRequestError.unsupported("MATCHES with a possessive quantifier (\(previous)+)")
            }
            previous = character
        }
    }

    private static func lastGroupCharacter(_ character: Character) -> Character? {
        ":=!".contains(character) ? nil : character
    }

    /// Throws when a case-insensitive pattern has a non-ASCII letter: `~*` under `COLLATE "C"`
    /// ignores the case of ASCII letters only.
    static func checkCaseInsensitive(_ pattern: String) throws {
        for scalar in pattern.unicodeScalars where scalar.value >= 0x80 && scalar.properties.changesWhenCaseMapped {
            throw FetchRequestError.unsupported(
                "MATCHES[c] with the letter \(scalar) (PostgreSQL ignores the case of ASCII letters only under COLLATE \"C\")")
        }
    }
}
#endif
