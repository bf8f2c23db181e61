/// How values are written as CSV fields and JSON values — by export, and by the CLI's output.
///
/// ```swift
/// ExportText.csvField("Brio, \"XL\"")   // "\"Brio, \"\"XL\"\"\""
/// ExportText.json(.real(599))            // "599.0"
/// ExportText.jsonString("a\u{1}b")       // "\"a\\u0001b\""
/// ```
public enum ExportText {
    /// A value as CSV text: NULL is empty, whole reals have no fraction ("599"), other reals
    /// their shortest exact form ("0.49").
    public static func plain(_ value: DatabaseValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): real == real.rounded() && real.magnitude < 1e15 ? String(Int64(real)) : String(real)
        case .text(let text): text
        case .blob(let data): String(decoding: data, as: UTF8.self)
        }
    }

    /// A CSV field, quoted when it holds a comma, quote or line break, or starts or ends with a space.
    public static func csvField(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ")
        guard needsQuotes else { return text }
        var quoted = "\""
        for character in text.unicodeScalars {
            if character == "\"" { quoted += "\"" }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }

    /// A JSON value: `null`, a number, or a string.
    public static func json(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? String(real) : "null"
        case .text(let text): jsonString(text)
        case .blob(let data): jsonString(String(decoding: data, as: UTF8.self))
        }
    }

    /// A JSON string literal.
    public static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
