/// How values are written as CSV fields and JSON values — by export, and by the CLI's output.
///
/// ```swift
/// ExportText.csvField("Brio, \"XL\"")   // "\"Brio, \"\"XL\"\"\""
/// ExportText.json(.real(599))            // "599.0"
/// ExportText.jsonString("a\u{1}b")       // "\"a\\u0001b\""
/// ```
public enum ExportText {
    /// A value as CSV text: NULL is empty, whole reals have no fraction ("599"), other reals
    /// their shortest exact form ("0.49"), always in plain decimal notation (what an import
    /// reads back: 1e20 is written "100000000000000000000").
    public static func plain(_ value: DatabaseValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): real == real.rounded() && real.magnitude < 1e15 ? String(Int64(real)) : decimal(real)
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
        case .real(let real): real.isFinite ? jsonNumber(real) : "null"
        case .text(let text): jsonString(text)
        case .blob(let data): jsonString(String(decoding: data, as: UTF8.self))
        }
    }

    /// A real as JSON: plain decimal notation with a fraction ("599.0", "0.49",
    /// "100000000000000000000.0").
    static func jsonNumber(_ value: Double) -> String {
        let text = decimal(value)
        return text.contains(".") ? text : text + ".0"
    }

    /// The shortest digits that read back as `value` (Swift's `description`), in plain decimal
    /// notation instead of an exponent: 1e+20 → "100000000000000000000", 1.5e-07 →
    /// "0.00000015". Infinity and NaN are returned as Swift writes them.
    public static func decimal(_ value: Double) -> String {
        let text = String(value)
        guard value.isFinite, let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(text[text.index(after: e)...])
        else { return text }
        var mantissa = text[..<e]
        let negative = mantissa.first == "-"
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = whole + fraction
        let point = whole.count + exponent
        var result: String
        if point <= 0 {
            result = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            result = digits + String(repeating: "0", count: point - digits.count)
        } else {
            result = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        if result.contains(".") {
            while result.hasSuffix("0") { result.removeLast() }
            if result.hasSuffix(".") { result.removeLast() }
        }
        while result.count > 1, result.hasPrefix("0"), !result.hasPrefix("0.") { result.removeFirst() }
        return (negative ? "-" : "") + result
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
