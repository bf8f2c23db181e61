import Foundation
import CatalogueKit

/// Prints records as a table, JSON, CSV or NDJSON on stdout.
struct RecordPrinter {
    let format: OutputFormat

    /// Prints `rows`; tables end with `summary` ("N items found").
    func print(_ rows: [[RecordField]], summary: String) {
        switch format {
        case .table:
            if !rows.isEmpty {
                Swift.print(TableText.render(rows))
            }
            Swift.print(summary)
        case .json:
            Swift.print("[" + rows.map { JSONText.object($0) }.joined(separator: ",\n ") + "]")
        case .ndjson:
            for row in rows { Swift.print(JSONText.object(row)) }
        case .csv:
            guard let first = rows.first else { return }
            Swift.print(CSVText.line(first.map(\.key)), terminator: "\r\n")
            for row in rows {
                Swift.print(CSVText.line(row.map { $0.value.isNull ? "" : $0.plainText }), terminator: "\r\n")
            }
        }
    }
}

extension RecordField {
    /// The value as plain text for CSV (numbers unformatted).
    var plainText: String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): real == real.rounded() && real.magnitude < 1e15 ? String(Int64(real)) : String(real)
        case .text(let text): text
        case .blob(let data): "<\(data.count) bytes>"
        }
    }
}

/// Aligned plain-text tables.
enum TableText {
    static func render(_ rows: [[RecordField]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = first.map { $0.header.count }
        for row in rows {
            for (index, field) in row.enumerated() {
                widths[index] = max(widths[index], field.display.count)
            }
        }
        func line(_ cells: [String], numeric: [Bool]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return numeric[index] ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let numeric = first.map(\.isNumeric)
        var lines = [line(first.map(\.header), numeric: numeric)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in rows {
            lines.append(line(row.map(\.display), numeric: row.map(\.isNumeric)))
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}

/// JSON text with keys in a fixed order.
enum JSONText {
    static func object(_ fields: [RecordField]) -> String {
        "{" + fields.map { string($0.key) + ":" + value($0.value) }.joined(separator: ",") + "}"
    }

    static func value(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? String(real) : "null"
        case .text(let text): string(text)
        case .blob(let data): string(data.base64EncodedString())
        }
    }

    static func string(_ text: String) -> String {
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

/// RFC 4180 CSV lines.
enum CSVText {
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.hasPrefix(" ") || text.hasSuffix(" ") else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
