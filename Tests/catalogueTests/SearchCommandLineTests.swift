import ArgumentParser
import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

/// The plain `catalogue search` reader: what it takes, what it leaves to swift-argument-parser,
/// and that what it takes, swift-argument-parser parses the same way.
@Suite("Plain search command lines (SearchCommandLine)")
struct SearchCommandLineTests {
    @Test("Plain search lines are read without swift-argument-parser")
    func plainLines() {
        #expect(SearchCommandLine.invocation(["search", "bog", "--scope", "capital"])
            == SearchInvocation(words: ["bog"], scope: "capital"))
        #expect(SearchCommandLine.invocation(["search"]) == SearchInvocation())
        #expect(SearchCommandLine.invocation(["search", ""]) == SearchInvocation(words: [""]))
        #expect(SearchCommandLine.invocation(["--db", "x.sqlite", "search", "united", "ki", "--match", "words"])
            == SearchInvocation(db: "x.sqlite", words: ["united", "ki"], mode: .words))
        #expect(SearchCommandLine.invocation([
            "search", "--entity", "products", "--limit", "0", "--format", "csv", "--count", "exact", "a", "--db", "p.sqlite",
        ]) == SearchInvocation(db: "p.sqlite", words: ["a"], entity: .products, limit: 0, format: .csv, count: .exact))
        // Words that name subcommands are words once `search` is named.
        #expect(SearchCommandLine.invocation(["search", "import", "help"]) == SearchInvocation(words: ["import", "help"]))
    }

    @Test("Help, errors, other subcommands and unusual spellings are left to swift-argument-parser", arguments: [
        [], ["--help"], ["-h"], ["--version"], ["help", "search"], ["search", "--help"], ["search", "-h"],
        ["import", "x.csv"], ["browse"], ["bog"], ["--db", "x.sqlite"],
        ["search", "--db=x.sqlite", "bog"], ["search", "--limit=5", "bog"], ["search", "--", "-bog"],
        ["search", "-5"], ["search", "--limit", "-1"], ["search", "--limit", "+5"], ["search", "--limit", "5x"],
        ["search", "--limit", "99999999999999999999"], ["search", "--limit"], ["search", "bog", "--scope"],
        ["search", "--entity", "nope"], ["search", "--match", "PREFIX"], ["search", "--format", "xml"],
        ["search", "--count", "all"], ["search", "--scope", "nosuch"], ["search", "--scope", "--match", "words"],
        ["search", "--match", "words", "--match", "prefix"], ["--db", "a", "search", "--db", "b"],
        ["search", "--wait-timeout", "5"], ["search", "--Scope", "capital"], ["search", "search", "--sort", "name"],
    ])
    func leftToArgumentParser(arguments: [String]) {
        #expect(SearchCommandLine.invocation(arguments) == nil)
    }

    /// Every command line of `search` and up to two pieces (search words, options with valid
    /// and invalid values, help flags, other subcommands' names), also with the root's `--db`
    /// before `search`, and with a piece before `search`: wherever the plain reader gives a
    /// search, swift-argument-parser parses the line to a `SearchCommand` with the same
    /// invocation.
    @Test("What the plain reader takes, swift-argument-parser parses to the same search")
    func agreesWithArgumentParser() throws {
        let pieces: [[String]] = [
            [], ["bog"], ["united", "ki"], [""], ["import"], ["help"], ["search"], ["--db", "x.sqlite"], ["--db", ""],
            ["--entity", "products"], ["--scope", "capital"], ["--scope", "device"], ["--scope", ""],
            ["--match", "words"], ["--limit", "0"], ["--limit", "007"], ["--format", "json"], ["--count", "exact"],
            ["-x"], ["--"], ["--db=y.sqlite"], ["--entity", "nope"], ["--scope", "nosuch"], ["--scope"],
            ["--match", "Words"], ["--limit", "-1"], ["--limit", "+5"], ["--limit=3"], ["--help"], ["--version"],
        ]
        var lines: [[String]] = []
        for first in pieces {
            lines.append(first + ["search"])
            for second in pieces {
                lines.append(["search"] + first + second)
                lines.append(["--db", "root.sqlite", "search"] + first + second)
            }
        }
        var compared = 0
        for arguments in lines {
            guard let plain = SearchCommandLine.invocation(arguments) else { continue }
            let parsed = try CatalogueCommand.parseAsRoot(arguments)
            let search = try #require(parsed as? SearchCommand, "\(arguments)")
            #expect(search.invocation == plain, "\(arguments)")
            compared += 1
        }
        // Most lines with valid pieces are plain: the comparison covers them.
        #expect(compared > 400, "only \(compared) plain lines")
    }

    /// A new option of `catalogue search` that the plain reader does not know leaves every line
    /// that uses it to swift-argument-parser, which is right but slow: this names it.
    @Test("The plain reader takes every option catalogue search has, but help")
    func knowsEveryOption() throws {
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(SearchCommand._dumpHelp().utf8)) as? [String: Any])
        let command = try #require(dump["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        let options = arguments.flatMap { ($0["names"] as? [[String: Any]]) ?? [] }
            .filter { $0["kind"] as? String == "long" }
            .compactMap { $0["name"] as? String }
            .filter { $0 != "help" }
        let values = ["db": "x.sqlite", "entity": "products", "scope": "name", "match": "words", "limit": "3", "format": "json", "count": "exact"]
        #expect(Set(options) == Set(values.keys))
        for option in options {
            let value = try #require(values[option], "--\(option) has no test value")
            #expect(SearchCommandLine.invocation(["search", "--\(option)", value, "bog"]) != nil, "--\(option) \(value)")
        }
    }
}
