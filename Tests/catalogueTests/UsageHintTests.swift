import Foundation
import Testing

/// Command lines whose words alone show the mistake: a mistyped command, a file where the entity
/// goes (the built binary).
@Suite("Usage hints (the built binary)")
struct UsageHintTests {
    @Test("A mistyped command names the one it most likely meant, exit 2, nothing on stdout and no database", arguments: [
        (["serch", "bog"], "unknown command 'serch' (did you mean 'search'?)"),
        (["Search", "bog"], "unknown command 'Search' (did you mean 'search'?)"),
        (["brwose"], "unknown command 'brwose' (did you mean 'browse'?)"),
        (["inter"], "unknown command 'inter' (did you mean 'interactive'?)"),
        (["--db", "other.sqlite", "improt", "lamps.csv"], "unknown command 'improt' (did you mean 'import'?)"),
    ])
    func mistypedCommand(arguments: [String], message: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "catalogue: error: \(message)\nRun 'catalogue --help' for usage.\n")
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
    }

    @Test("A first word that is no command lists the commands and how to search for it")
    func searchTextAsCommand() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["bogota", "--scope", "capital"])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let firstLine = try #require(result.standardError.split(separator: "\n").first.map(String.init))
        #expect(firstLine.hasPrefix("catalogue: error: unknown command 'bogota'; the commands are search, browse, "), "\(firstLine)")
        #expect(firstLine.hasSuffix("; to search for it: catalogue search \"bogota\""), "\(firstLine)")
        // The command it names runs and finds it.
        let search = try runner.run(["search", "bogota", "--scope", "capital"])
        #expect(search.status == 0)
        #expect(search.standardOutput.contains("Colombia"))
        // help and its subcommand still work; a real command's own mistakes keep their messages.
        #expect(try runner.run(["help", "search"]).standardOutput.contains("catalogue search"))
        let unexpected = try runner.run(["show", "CO", "FR", "--extra"])
        #expect(unexpected.status == 2)
        #expect(!unexpected.standardError.contains("unknown command"), "\(unexpected.standardError)")
    }

    @Test("A file named where the entity goes: the entity first, guessed from the file's name where it names one; nothing read or created",
          arguments: [
        (["import", "countries.csv"], "'countries.csv' is not what to import (countries or products): it comes first, then the file: catalogue import countries countries.csv"),
        (["import", "new-product-list.ndjson", "--on-error", "skip"],
         "'new-product-list.ndjson' is not what to import (countries or products): it comes first, then the file: catalogue import products new-product-list.ndjson --on-error skip"),
        (["import", "my file.csv"], "'my file.csv' is not what to import (countries or products): it comes first, then the file: catalogue import countries|products \"my file.csv\""),
        (["import", "-"], "'-' is not what to import (countries or products): it comes first, then the file: catalogue import countries|products -"),
        (["export", "products.json"], "'products.json' is not what to export (countries or products): it comes first, then the file: catalogue export products products.json"),
        // A database file named like the command, before it.
        (["--db", "import", "import", "x.csv"], "'x.csv' is not what to import (countries or products): it comes first, then the file: catalogue import countries|products x.csv"),
    ])
    func fileForEntity(arguments: [String], message: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let command = arguments.first { $0 == "import" || $0 == "export" } ?? ""
        #expect(result.standardError == "catalogue: error: \(message)\nRun 'catalogue \(command) --help' for usage.\n")
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
        // A missing entity keeps swift-argument-parser's message.
        #expect(try runner.run([command]).standardError.hasPrefix("catalogue: error: Missing expected argument '<entity>'"))
    }
}
