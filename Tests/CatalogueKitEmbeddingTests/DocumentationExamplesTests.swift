import CatalogueKit
import Foundation
import Testing

/// Every Swift example of the README's embedding section and of the DocC catalog is compiled:
/// each block appears, line for line (indentation aside), in the files of `Examples/EmbeddingExample`,
/// an executable the package builds as an app would (public API only), or, for PostgreSQL's
/// examples (which an app embedding only CatalogueKit cannot build), in ``postgresExamples``,
/// compiled and run by the PostgreSQL trait's tests. Run, the executable prints what the
/// examples' comments say.
@Suite("Documentation examples")
struct DocumentationExamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose Swift blocks must compile, with the part of each that counts.
    static let documents: [(path: String, section: String?)] = [
        ("README.md", "## Embedding CatalogueKit"),
        ("Sources/CatalogueKit/CatalogueKit.docc/CatalogueKit.md", nil),
        ("Sources/CatalogueKit/CatalogueKit.docc/SearchingTheCatalogue.md", nil),
        ("Sources/CatalogueKit/CatalogueKit.docc/SectionedResults.md", nil),
        ("Sources/CatalogueKit/CatalogueKit.docc/ImportAndExport.md", nil),
        ("Sources/CatalogueKit/CatalogueKit.docc/StoringYourOwnRecords.md", nil),
    ]

    /// The test files, built with the PostgreSQL trait, that hold the PostgreSQL examples verbatim.
    static let postgresExamples = ["Tests/CataloguePostgresTests/StoringYourOwnRecordsOnPostgresTests.swift"]

    /// The Swift blocks of a Markdown text (```swift … ```), each as its lines.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The lines that carry code: trimmed, without blank lines and `import` lines.
    static func codeLines(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// The text of `path`, limited to the section that starts with `heading` (to the next `## `).
    static func text(of path: String, section heading: String?) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        guard let heading else { return text }
        guard let start = text.range(of: heading + "\n") else { return "" }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Whether `lines` appear in `file`, one after the other.
    static func contains(_ file: [String], _ lines: [String]) -> Bool {
        guard lines.count <= file.count else { return false }
        for start in 0...(file.count - lines.count) where Array(file[start..<start + lines.count]) == lines {
            return true
        }
        return false
    }

    @Test("every Swift block of the README's embedding section and the DocC catalog is compiled here")
    func everyBlockIsCompiled() throws {
        let folder = Self.root.appendingPathComponent("Examples/EmbeddingExample")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Examples.swift") }
        let paths = files.map { folder.appendingPathComponent($0) } + Self.postgresExamples.map { Self.root.appendingPathComponent($0) }
        let compiled = try paths.map {
            Self.codeLines(try String(contentsOf: $0, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        var checked = 0
        for document in Self.documents {
            let blocks = Self.swiftBlocks(in: try Self.text(of: document.path, section: document.section))
            #expect(!blocks.isEmpty, "no Swift block found in \(document.path)")
            for block in blocks where block.first?.hasPrefix("// Package.swift") != true {
                let lines = Self.codeLines(block)
                let found = compiled.contains { file in Self.contains(file, lines) }
                #expect(found, "\(document.path): this block is not in the compiled examples:\n\(block.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 12)
    }

    @Test("the examples, run as an app, print what their comments say")
    func examplesPrintWhatTheySay() throws {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        let binary = try #require(candidates.map { $0.appendingPathComponent("EmbeddingExample") }
            .first { FileManager.default.fileExists(atPath: $0.path) })
        let process = Process()
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(12)) == [
            "[\"Bogotá\"]", "[\"US\"]",
            "[\"Colombia\"]", "1 item found",
            "true [\"Bolivia\", \"Bosnia and Herzegovina\", \"Botswana\"]",
            "[\"Bolivia\", \"Bonaire, Sint Eustatius and Saba\", \"Bosnia and Herzegovina\", \"Botswana\"]",
            "[\"Chad\", \"Chile\"]", "[\"Côte d\\'Ivoire\"]", "[\"Colombia\"]",
            "[1]",
            "[\"Colombia\"] 1 item found",
        ] + [lines.count > 11 ? lines[11] : ""])
        #expect(lines.count > 11 && lines[11].hasPrefix("[\"iPad\", \"iPad mini\", \"iPhone\""))
        #expect(lines.dropFirst(12).prefix(4) == ["0", "1 item found", "[\"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\", \"H\", \"I\", \"J\", \"K\", \"L\", \"M\", \"N\", \"O\", \"P\", \"Q\", \"R\", \"S\", \"T\", \"U\", \"V\", \"W\", \"Y\", \"Z\"]", "Afghanistan"])
        #expect(lines.suffix(9) == [
            "[\"Philippines\"]", "words: 1", "[\"Lampe Berger\", \"Lampenschirm\", \"Desk Lampe\", \"Lamp\", \"Amber lamp\"]",
            "c 9 items found", "cr 3 items found", "cré 2 items found", "colo 1 item found",
            "created shop.sqlite with 2 products", "created shop.sqlite",
        ])
    }
}
