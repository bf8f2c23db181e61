import Foundation
import Testing

@Suite("catalogue browse and index (the built binary)")
struct BrowseCommandTests {
    @Test("index prints every initial letter with its count; JSON form")
    func index() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let json = try runner.run(["index", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(entries.first?["title"] as? String == "A")
        #expect(entries.compactMap { $0["count"] as? Int }.reduce(0, +) >= 245)
        #expect(!entries.contains { $0["title"] as? String == "X" })
        let table = try runner.run(["index"])
        #expect(table.standardOutput.split(separator: "\n").first?.hasPrefix("A  ") == true)
    }

    @Test("browse prints sections with headers; --section picks one; JSON has titles and rows")
    func browse() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let table = try runner.run(["browse", "--section", "c"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("\nC ("))
        #expect(table.standardOutput.contains("Côte d'Ivoire"))
        #expect(!table.standardOutput.contains("Bolivia"))
        // A title is matched as sections are made: ignoring case and diacritics (Å is in A).
        for (given, title) in [("Ç", "C"), ("å", "A"), ("É", "E")] {
            let folded = try runner.run(["browse", "--section", given])
            #expect(folded.status == 0, "\(given): \(folded.standardError)")
            #expect(folded.standardOutput.contains("\n\(title) ("), "\(given): \(folded.standardOutput.prefix(200))")
        }

        let json = try runner.run(["browse", "--format", "json"])
        let sections = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        let aRows = try #require(sections.first?["rows"] as? [[String: Any]])
        #expect(sections.first?["title"] as? String == "A")
        #expect(aRows.contains { $0["name"] as? String == "Åland Islands" })
        let total = sections.compactMap { ($0["rows"] as? [Any])?.count }.reduce(0, +)
        #expect(total >= 245)

        let capitals = try runner.run(["browse", "--scope", "capital", "--section", "B", "--format", "json"])
        let capitalSection = try #require(try JSONSerialization.jsonObject(with: Data(capitals.standardOutput.utf8)) as? [[String: Any]])
        let capitalRows = try #require(capitalSection.first?["rows"] as? [[String: Any]])
        #expect(capitalRows.contains { $0["capital"] as? String == "Bogotá" })
        #expect(capitalRows.allSatisfy { ($0["capital"] as? String)?.hasPrefix("B") == true })
    }

    @Test("Products by type; unknown section, scope or type is a usage error")
    func productsAndErrors() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let devices = try runner.run(["browse", "--entity", "products", "--scope", "device", "--format", "json"])
        let sections = try #require(try JSONSerialization.jsonObject(with: Data(devices.standardOutput.utf8)) as? [[String: Any]])
        #expect(sections.flatMap { ($0["rows"] as? [[String: Any]]) ?? [] }.allSatisfy { $0["type"] as? String == "device" })

        for arguments in [["browse", "--section", "X"], ["browse", "--scope", "planet"], ["index", "--entity", "products", "--scope", "toys"]] {
            let result = try runner.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("catalogue: error: "), "\(arguments): \(result.standardError)")
        }
    }

    @Test("The entity may come first, as show, import and export take it; with a different --entity it is a usage error")
    func entityFirst() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        for command in ["browse", "index"] {
            let first = try runner.run([command, "products", "--format", "json"])
            let option = try runner.run([command, "--entity", "products", "--format", "json"])
            #expect(first.status == 0, "\(command): \(first.standardError)")
            #expect(first.standardOutput == option.standardOutput, "\(command)")
            #expect(first.standardOutput != (try runner.run([command, "--format", "json"])).standardOutput, "\(command): countries by default")
            #expect(try runner.run([command, "Product", "--entity", "products", "--format", "json"]).standardOutput == option.standardOutput)
            let conflict = try runner.run([command, "countries", "--entity", "products"])
            #expect(conflict.status == 2)
            #expect(conflict.standardError.hasPrefix("catalogue: error: 'countries' and --entity products name different entities; give one\n"),
                    "\(conflict.standardError)")
        }
    }

    @Test("browse and index refuse a scope without sections (any), naming the ones with sections; exit 2")
    func searchOnlyScope() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        for command in ["browse", "index"] {
            let result = try runner.run([command, "--scope", "any"])
            #expect(result.status == 2)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError == """
                catalogue: error: scope 'any' of countries is for searching only, it has no sections; sectioned scopes: name, capital
                Run 'catalogue \(command) --help' for usage.

                """)
        }
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
        let capital = try runner.run(["index", "--scope", "Capital"])
        #expect(capital.status == 0)
    }
}
