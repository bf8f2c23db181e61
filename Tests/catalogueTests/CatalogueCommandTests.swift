import Foundation
import Testing

/// The root command's help and its usage errors, from the built binary.
@Suite("catalogue --help")
struct CatalogueCommandTests {
    /// The subcommands listed under SUBCOMMANDS in `help`.
    private static func subcommands(in help: String) -> Set<String> {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("SUBCOMMANDS:") }) else { return [] }
        var names: Set<String> = []
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("  ") else { break }
            if let name = line.split(separator: " ").first { names.insert(String(name)) }
        }
        return names
    }

    /// The subcommand each `catalogue …` example line of `help` runs (after `--db PATH`, if any).
    private static func exampleCommands(in help: String) -> [String] {
        help.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ").map(String.init)[...]
            guard words.popFirst() == "catalogue" else { return nil }
            if words.first == "--db" { words = words.dropFirst(2) }
            return words.first
        }
    }

    @Test("Every example runs a subcommand this build has (serve only with the Server trait)")
    func examplesNameListedSubcommands() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["--help"])
        #expect(help.status == 0)
        let listed = Self.subcommands(in: help.standardOutput)
        let examples = Self.exampleCommands(in: help.standardOutput)
        #expect(listed.isSuperset(of: ["search", "import", "export", "interactive"]), "\(listed)")
        #expect(examples.count >= 3, "\(help.standardOutput)")
        for command in examples {
            #expect(listed.contains(command), "the example runs '\(command)', which --help does not list: \(listed.sorted())")
        }
        #if Server
        #expect(examples.contains("serve"))
        #else
        #expect(!listed.contains("serve") && !examples.contains("serve"))
        #endif
    }

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
}
