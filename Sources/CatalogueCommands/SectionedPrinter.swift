import ArgumentParser
import CatalogueKit

/// How `browse` and `index` print.
enum SectionedOutputFormat: String, CaseIterable, ArgumentChoices {
    case table
    case json
}

/// Prints sections of records: a table with a header line per section, or
/// `[{"title":"A","rows":[…]}]`.
struct SectionedPrinter {
    let format: SectionedOutputFormat

    func print(_ sections: [(title: String, rows: [[RecordField]])]) {
        switch format {
        case .json:
            standardOutput.print("[" + sections.map { section in
                "{\"title\":\(JSONText.string(section.title)),\"rows\":[" + section.rows.map(JSONText.object).joined(separator: ",") + "]}"
            }.joined(separator: ",\n ") + "]")
        case .table:
            let allRows = sections.flatMap(\.rows)
            guard !allRows.isEmpty else {
                standardOutput.print("No items found")
                return
            }
            // One table for every row, so columns align across sections; section headers between.
            let lines = TableText.render(allRows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            standardOutput.print(lines[0])
            standardOutput.print(lines[1])
            var next = 2
            for section in sections {
                standardOutput.print("")
                standardOutput.print("\(section.title) (\(section.rows.count))")
                for line in lines[next..<next + section.rows.count] { standardOutput.print(line) }
                next += section.rows.count
            }
            standardOutput.print("")
            standardOutput.print(ResultCountText.found(allRows.count))
        }
    }
}
