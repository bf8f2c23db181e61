/// The total a `catalogue search` table reports on its last line: "No items found" (0),
/// "2,000 items found", "1 item found", or, when `--limit` cut the table, "1 of 2,000 shown
/// (--limit 0 for all)". -1 for any other line.
///
/// ```swift
/// SearchSummaryLine.total(of: "1 of 2,000 shown (--limit 0 for all)")   // 2000
/// ```
enum SearchSummaryLine {
    static func total(of line: String) -> Int {
        if line == "No items found" { return 0 }
        let words = line.split(separator: " ")
        let total = words.count > 2 && words[1] == "of" ? words[2] : words.first ?? ""
        return Int(total.replacingOccurrences(of: ",", with: "")) ?? -1
    }
}
