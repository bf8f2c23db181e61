/// Text from the database made safe for a terminal and for aligned tables: every control
/// character (C0, DEL, C1: escape, newline, tab, …) is shown as an escape sequence, so a name
/// cannot move the cursor, retitle the window or break a table row. JSON, CSV and NDJSON
/// output keeps the exact text.
///
/// ```swift
/// TerminalText.escaped("Evil\u{1B}]0;PWNED\u{07}")   // "Evil\\x1B]0;PWNED\\x07"
/// TerminalText.escaped("Two\nlines")                // "Two\\nlines"
/// ```
enum TerminalText {
    /// `text` with control characters written as `\n`, `\r`, `\t` or `\xHH`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            let escape: String = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\x" + hex(scalar.value)
            }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    /// Whether `scalar` is a control character (general category Cc).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
