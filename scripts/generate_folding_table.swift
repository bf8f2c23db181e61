// Regenerates Sources/CatalogueKit/FoldingTable.swift: swift scripts/generate_folding_table.swift
// (paste the printed rows into the table). FoldingTests checks the table against Foundation.
import Foundation
// Prints Foundation's [cd] folding of each scalar U+0000..U+024F, as Swift source.
var lines: [String] = []
var differing = 0
for value in 0..<0x250 {
    let scalar = Unicode.Scalar(value)!
    let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    if folded != String(scalar) { differing += 1 }
    let escaped = folded.unicodeScalars.map { "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    lines.append("\"\(escaped)\"")
}
var out = ""
for chunk in stride(from: 0, to: lines.count, by: 8) {
    out += "        " + lines[chunk..<min(chunk + 8, lines.count)].joined(separator: ", ") + ",\n"
}
print(out, terminator: "")
FileHandle.standardError.write("differing: \(differing)\n".data(using: .utf8)!)
