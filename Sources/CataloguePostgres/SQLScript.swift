#if PostgreSQL
/// A migration script split into its statements, for a driver that sends one statement at a
/// time (the extended protocol): `;` ends a statement outside quotes ('…', E'…', "…"),
/// dollar quotes ($$…$$, $tag$…$tag$) and comments (-- and nested /* */).
///
/// ```swift
/// SQLScript.statements(in: "CREATE TABLE t (x text DEFAULT ';'); SELECT $$a;b$$;")
/// // ["CREATE TABLE t (x text DEFAULT ';')", "SELECT $$a;b$$"]
/// ```
enum SQLScript {
    static func statements(in script: String) -> [String] {
        let scalars = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0
        func flush() {
            // Leading comment lines dropped: the statement starts with its keyword.
            let lines = String(current).split(separator: "\n", omittingEmptySubsequences: false)
            let statement = lines.drop { $0.trimmingWhitespace.hasPrefix("--") || $0.trimmingWhitespace.isEmpty }
                .joined(separator: "\n").trimmingWhitespace
            if !statement.isEmpty, !isOnlyComments(statement) { statements.append(statement) }
            current = String.UnicodeScalarView()
        }
        func copy(_ count: Int) {
            current.append(contentsOf: scalars[index..<min(index + count, scalars.count)])
            index += count
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case ";":
                index += 1
                flush()
            case "-" where next == "-":
                while index < scalars.count, scalars[index] != "\n" { copy(1) }
            case "/" where next == "*":
                var depth = 0
                repeat {
                    if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                        depth += 1
                        copy(2)
                    } else if scalars[index] == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        depth -= 1
                        copy(2)
                    } else {
                        copy(1)
                    }
                } while depth > 0 && index < scalars.count
            case "'":
                let escapes = index > 0 && (scalars[index - 1] == "E" || scalars[index - 1] == "e")
                copy(1)
                while index < scalars.count {
                    if escapes, scalars[index] == "\\" {
                        copy(2)
                    } else if scalars[index] == "'" {
                        copy(1)
                        if index < scalars.count, scalars[index] == "'" { copy(1) } else { break }
                    } else {
                        copy(1)
                    }
                }
            case "\"":
                copy(1)
                while index < scalars.count, scalars[index] != "\"" { copy(1) }
                copy(1)
            case "$":
                // $tag$ … $tag$ (a tag of letters, digits, underscores; not a $1 parameter).
                var end = index + 1
                while end < scalars.count, scalars[end].properties.isAlphabetic || scalars[end] == "_"
                        || (end > index + 1 && ("0"..."9").contains(scalars[end])) {
                    end += 1
                }
                guard end < scalars.count, scalars[end] == "$" else {
                    copy(1)
                    continue
                }
                let tag = Array(scalars[index...end])
                copy(tag.count)
                while index < scalars.count {
                    if scalars[index] == "$", index + tag.count <= scalars.count, Array(scalars[index..<(index + tag.count)]) == tag {
                        copy(tag.count)
                        break
                    }
                    copy(1)
                }
            default:
                copy(1)
            }
        }
        flush()
        return statements
    }

    private static func isOnlyComments(_ statement: String) -> Bool {
        statement.split(separator: "\n").allSatisfy { $0.trimmingWhitespace.hasPrefix("--") || $0.trimmingWhitespace.isEmpty }
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace and newlines.
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
#endif
