import Foundation
import Testing
@testable import CatalogueCommands

/// Tables of `search` and `browse` align their columns by the cells a name takes on a terminal,
/// not by its characters: a CJK character or an emoji takes two, a combining accent none.
@Suite("Tables aligned by terminal cells (the built binary)")
struct RecordPrinterTests {
    static let names = ["東京タワー模型", "Tokyo tower", "👨‍👩‍👧 family", "e\u{301}clair"]

    /// A catalogue holding `names` as products of type "wide".
    static func preparedRunner() throws -> CommandRunner {
        let runner = try CommandRunner()
        let file = runner.directory.appendingPathComponent("wide.ndjson").path
        let lines = names.enumerated().map { index, name in
            "{\"name\": \(ExportedJSON.string(name)), \"type\": \"wide\", \"year\": \(1990 + index)}\n"
        }
        try lines.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let result = try runner.run(["import", "products", file])
        try #require(result.status == 0, "\(result.standardError)")
        return runner
    }

    /// The line of `output` that holds `name`.
    static func line(holding name: String, in output: String) throws -> String {
        try #require(output.split(separator: "\n").map(String.init).first { $0.contains(name) }, "\(name) in \(output)")
    }

    @Test("search and browse pad each name to the widest one's cells: 東京 takes four, é with a combining accent one")
    func wideNamesAlign() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        for arguments in [["search", "", "--entity", "products", "--scope", "wide"], ["browse", "--entity", "products", "--scope", "wide"]] {
            let result = try runner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            let output = result.standardOutput
            // The widest name (7 characters, 14 cells) sets the column: two spaces after it, five
            // after "Tokyo tower" (11 cells), ten after "éclair" (7 scalars, 6 cells), seven
            // after the family (one character of 2 cells, a space and "family": 9 cells).
            #expect(try Self.line(holding: "東京タワー模型", in: output).contains("東京タワー模型  wide"), "\(output)")
            #expect(try Self.line(holding: "Tokyo tower", in: output).contains("Tokyo tower     wide"), "\(output)")
            #expect(try Self.line(holding: "clair", in: output).contains("e\u{301}clair          wide"), "\(output)")
            #expect(try Self.line(holding: "family", in: output).contains("👨‍👩‍👧 family       wide"), "\(output)")
            // Every row's type starts in the header's "Type" column, counted in cells.
            let header = try Self.line(holding: "Type", in: output)
            let typeColumn = DisplayWidth.of(header[..<(try #require(header.range(of: "Type"))).lowerBound])
            for name in ["東京タワー模型", "Tokyo tower", "family", "clair"] {
                let row = try Self.line(holding: name, in: output)
                let before = try #require(row.range(of: "wide")).lowerBound
                #expect(DisplayWidth.of(row[..<before]) == typeColumn, "\(row)")
            }
        }
    }
}
