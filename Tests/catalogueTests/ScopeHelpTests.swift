import Foundation
import Testing

/// `--scope` as a new user meets it: its help lists the scopes, product types included when
/// the catalogue exists (read, never created, to print help), and the shells complete it.
@Suite("catalogue --scope help and completions (the built binary)")
struct ScopeHelpTests {
    @Test("search --help lists this catalogue's product types; browse --help leaves out search-only scopes")
    func helpListsTypes() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try runner.run(["import", "products", "-"], input: Data("name,type\nBrass kettle,kitchenware\n".utf8))
        for arguments in [["search", "--help"], ["help", "search"], ["search", "-h"], ["--db", runner.databasePath, "search", "--help"]] {
            let help = try runner.run(arguments)
            #expect(help.status == 0, "\(arguments)")
            let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("--scope <scope> The scope: countries: name (default), capital, any; products: all (default) or a product type: birthdays, desktop, device, funerals, kitchenware, portable, weddings."), "\(arguments): \(text)")
        }
        let browse = try runner.run(["browse", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(browse.contains("The sectioned scope: countries: name (default), capital; products: all (default) or a product type: birthdays,"), "\(browse)")
    }

    @Test("Help without a catalogue creates none and names the kinds of scope")
    func helpWithoutCatalogue() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["search", "--help"])
        #expect(help.status == 0)
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("products: all (default) or a product type."), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
        // An ordinary run does not read product types for its help.
        let search = try runner.run(["search", "zzz"])
        #expect(search.status == 0)
    }

    @Test("The completion scripts complete --scope with this catalogue's scopes in bash, zsh and fish")
    func completions() throws {
        let script = InteractiveTmuxTests.script.deletingLastPathComponent().appendingPathComponent("completion-test.sh")
        let missing = ["tmux", "zsh", "fish"].filter { tool in
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            return !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        guard missing.isEmpty else {
            Issue.record("""
                \(missing.joined(separator: ", ")) not installed, so the completion scripts cannot be tested in \
                those shells: apt-get install tmux zsh fish (.ci/run does)
                """)
            return
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-completion-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let status = try InteractiveTmuxTests.run(["/bin/bash", script.path, CommandRunner.executable.path], output: log.path)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "completion-test.sh failed:\n\(text)")
        #expect(text.split(separator: "\n").last.map(String.init) == "12 passed, 0 failed", "\(text)")
    }

    @Test("The completion protocol answers with the scopes, read from --db, without creating it")
    func customCompletion() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let missing = runner.directory.appendingPathComponent("missing.sqlite").path
        let countries = try runner.run(["---completion", "search", "--", "--scope", "3", "0", "catalogue", "search", "--scope", ""],
                                       environment: ["CATALOGUE_DB": missing])
        #expect(countries.status == 0, "\(countries.standardError)")
        #expect(countries.standardOutput.split(separator: "\n") == ["name", "capital", "any"])
        #expect(!FileManager.default.fileExists(atPath: missing))
        _ = try runner.run(["import", "products", "-"], input: Data("name,type\nBrass kettle,kitchenware\n".utf8))
        let products = try runner.run(["---completion", "index", "--", "--scope", "6", "0",
                                       "catalogue", "--db", runner.databasePath, "index", "--entity", "products", "--scope", ""],
                                      environment: ["CATALOGUE_DB": missing])
        #expect(products.standardOutput.split(separator: "\n").contains("kitchenware"), "\(products.standardOutput)")
        #expect(products.standardOutput.split(separator: "\n").first == "all")
    }
}
