import Foundation
import Testing

/// Text from the database never reaches a terminal or a table as control characters (issue
/// 13, item 6): `search`, `browse` and `show` escape them; JSON, CSV and NDJSON keep the exact
/// text.
@Suite("Terminal escapes (the built binary)")
struct TerminalEscapeTests {
    static let evil = "Evil\u{1B}]0;PWNED\u{07}\u{1B}[2J name"
    static let twoLines = "Two\nlines"

    /// A catalogue with two hostile products, of type "evil".
    static func preparedRunner() throws -> CommandRunner {
        let runner = try CommandRunner()
        let json = runner.directory.appendingPathComponent("evil.ndjson").path
        let lines = [evil, twoLines, "Bell\u{07}\u{7F}\u{9B}31m"].map { name in
            "{\"name\": \(ExportedJSON.string(name)), \"type\": \"evil\", \"year\": 2001}\n"
        }
        try lines.joined().write(toFile: json, atomically: true, encoding: .utf8)
        let result = try runner.run(["import", "products", json])
        try #require(result.status == 0, "\(result.standardError)")
        return runner
    }

    /// Whether `text` has a control character other than the line feeds that end lines.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    @Test("search, browse and show tables escape control characters; every row stays one line")
    func tablesEscape() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let search = try runner.run(["search", "", "--entity", "products", "--scope", "evil"])
        #expect(!Self.hasControlCharacter(search.standardOutput), "\(search.standardOutput.debugDescription)")
        #expect(search.standardOutput.contains("Evil\\x1B]0;PWNED\\x07\\x1B[2J name"))
        #expect(search.standardOutput.contains("Two\\nlines"))
        #expect(search.standardOutput.contains("Bell\\x07\\x7F\\x9B31m"))
        // Header, rule, three rows, the count: a name's newline no longer breaks a row.
        #expect(search.standardOutput.split(separator: "\n").count == 6, "\(search.standardOutput)")
        let browse = try runner.run(["browse", "--entity", "products", "--scope", "evil"])
        #expect(!Self.hasControlCharacter(browse.standardOutput), "\(browse.standardOutput.debugDescription)")
        #expect(browse.standardOutput.contains("Two\\nlines"))
        let id = try #require(try runner.run(["search", "evil", "--entity", "products", "--format", "csv"])
            .standardOutput.split(separator: "\r\n").dropFirst().first?.split(separator: ",").first)
        let show = try runner.run(["show", String(id)])
        #expect(show.status == 0)
        #expect(!Self.hasControlCharacter(show.standardOutput), "\(show.standardOutput.debugDescription)")
        #expect(show.standardOutput.hasPrefix("Evil\\x1B]0;PWNED\\x07\\x1B[2J name\n"))
    }

    @Test("JSON, NDJSON and CSV keep the exact text")
    func dataFormatsKeepText() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let json = try runner.run(["search", "", "--entity", "products", "--scope", "evil", "--format", "json"])
        #expect(Set(try json.jsonNames()) == [Self.evil, Self.twoLines, "Bell\u{07}\u{7F}\u{9B}31m"])
        let csv = try runner.run(["export", "products"])
        #expect(csv.standardOutput.contains("\"Two\nlines\""))
        #expect(csv.standardOutput.contains(Self.evil))
    }

    @Test("Imported fields keep every control character exactly, NUL included (CSV in, JSON out)")
    func controlCharactersKept() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let controls: [String] = (0..<32).map { (code: UInt8) -> String in "Ctl \(code) <\(String(UnicodeScalar(code)))>" }
        let names = controls + ["Del <\u{7F}>", "C1 <\u{85}\u{9B}>"]
        let csv = "name,type\n" + names.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\",ctl\n" }.joined()
        let file = runner.directory.appendingPathComponent("ctl.csv").path
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try runner.run(["import", "products", file])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("Imported 34 products (34 added"), "\(imported.standardOutput)")
        let json = try runner.run(["search", "", "--entity", "products", "--scope", "ctl", "--limit", "0", "--format", "json"])
        #expect(Set(try json.jsonNames()) == Set(names))
        let table = try runner.run(["search", "", "--entity", "products", "--scope", "ctl", "--limit", "0"])
        #expect(!Self.hasControlCharacter(table.standardOutput))
        #expect(table.standardOutput.split(separator: "\n").count == 2 + 34 + 1)
    }

    @Test("Error lines escape control characters too")
    func errorsEscape() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["search", "x", "--entity", "products", "--scope", "no\u{1B}[2Jsuch"])
        #expect(result.status == 2)
        #expect(!Self.hasControlCharacter(result.standardError), "\(result.standardError.debugDescription)")
        #expect(result.standardError.contains("no\\x1B[2Jsuch"))
    }
}

/// JSON string literals for test files.
enum ExportedJSON {
    static func string(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
