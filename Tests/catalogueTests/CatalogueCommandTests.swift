import Testing

/// The root command's help, from the built binary.
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
}
