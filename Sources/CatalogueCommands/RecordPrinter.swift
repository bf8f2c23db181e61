import Foundation
import CatalogueKit

/// Prints records as a table, JSON, CSV or NDJSON on stdout.
struct RecordPrinter {
    let format: OutputFormat

    /// Prints `rows`, whose fields are `keys` (CSV's header, also without rows); tables end
    /// with `summary` ("N items found", "50 of 250 shown (--limit 0 for all)").
    func print(_ rows: [[RecordField]], keys: [String], summary: String) {
        switch format {
        case .table:
            if !rows.isEmpty {
                standardOutput.print(TableText.render(rows))
            }
            standardOutput.print(summary)
        case .json:
            standardOutput.print("[" + rows.map { JSONText.object($0) }.joined(separator: ",\n ") + "]")
        case .ndjson:
            for row in rows { standardOutput.print(JSONText.object(row)) }
        case .csv:
            standardOutput.print(CSVText.line(keys), terminator: "\r\n")
            for row in rows {
                standardOutput.print(CSVText.line(row.map { $0.value.isNull ? "" : $0.plainText }), terminator: "\r\n")
            }
        }
    }
}

extension RecordField {
    /// The value as plain text for CSV (numbers unformatted).
    var plainText: String {
        ExportText.plain(value)
    }
}

/// Aligned plain-text tables: columns are as wide as their widest cell in terminal cells
/// (``DisplayWidth``), so "東京" (four cells) and "Bogota\u{301}" (six) line up with the rest.
///
/// ```
/// ID  Name    Type  Year
/// --  ------  ----  ----
/// 75  東京    Toy   1990
/// 76  Bogotá  Toy   1991
/// ```
enum TableText {
    static func render(_ rows: [[RecordField]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = first.map { DisplayWidth.of($0.header) }
        for row in rows {
            for (index, field) in row.enumerated() {
                widths[index] = max(widths[index], DisplayWidth.of(field.display))
            }
        }
        func line(_ cells: [String], numeric: [Bool]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
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

/// JSON objects with keys in a fixed order (values written by CatalogueKit's `ExportText`).
enum JSONText {
    static func object(_ fields: [RecordField]) -> String {
        "{" + fields.map { string($0.key) + ":" + ExportText.json($0.value) }.joined(separator: ",") + "}"
    }

    static func string(_ text: String) -> String {
        ExportText.jsonString(text)
    }
}

/// RFC 4180 CSV lines (fields quoted by CatalogueKit's `ExportText`).
enum CSVText {
    static func line(_ fields: [String]) -> String {
        fields.map(ExportText.csvField).joined(separator: ",")
    }
}
