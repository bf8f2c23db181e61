import CatalogueKit

/// A `catalogue search` command line in its plain form, read without swift-argument-parser.
///
/// A one-shot search is the command people and scripts run most, and its start-up is what they
/// wait for. swift-argument-parser builds its model of the whole command tree by reflection on
/// every run: about 22 of the 37 million instructions of a cold `catalogue search` at
/// 1,000,000 products, measured with callgrind, nearly all of it the Swift runtime resolving
/// generic types and protocol conformances on first use. This reader takes the plain form only:
///
/// - `search`, with `--db PATH` before or after it;
/// - the options `--entity`, `--scope`, `--match`, `--limit`, `--format` and `--count`, each at
///   most once, written `--name value`, with values that are valid as they stand;
/// - words that do not start with `-`.
///
/// Anything else (help, a version request, another subcommand, `--name=value`, a repeated
/// option, an unknown or misspelled one, a value swift-argument-parser or ``SearchInvocation``
/// would refuse) gives nil, and swift-argument-parser parses the line as always, so help,
/// errors and their wording stay its own. What this reader accepts, swift-argument-parser
/// parses to the same ``SearchInvocation``: `SearchCommandLineTests` checks that on every command
/// line of `search` and up to two pieces of a list of options, values and words.
///
/// ```swift
/// SearchCommandLine.invocation(["search", "bog", "--scope", "capital"])
/// // SearchInvocation(words: ["bog"], scope: "capital")
/// SearchCommandLine.invocation(["search", "--help"])  // nil
/// ```
enum SearchCommandLine {
    /// The search `arguments` (the command line after the program's name) ask for, when they
    /// are in the plain form; nil when swift-argument-parser should read them.
    static func invocation(_ arguments: some Sequence<String>) -> SearchInvocation? {
        var invocation = SearchInvocation()
        var named = false
        var given: Set<String> = []
        var iterator = arguments.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("-") else {
                if named {
                    invocation.words.append(word)
                } else if word == "search" {
                    named = true
                } else {
                    return nil  // another subcommand, or `help`
                }
                continue
            }
            // Before `search`, only the root's own `--db`.
            guard named || word == "--db", given.insert(word).inserted,
                  let value = iterator.next(), !value.hasPrefix("-"),
                  set(word, to: value, in: &invocation)
            else { return nil }
        }
        guard named, (try? invocation.validate()) != nil else { return nil }
        return invocation
    }

    /// Sets the option `name` to `value`; false for a name this reader does not take or a value
    /// that is not valid as it stands.
    private static func set(_ name: String, to value: String, in invocation: inout SearchInvocation) -> Bool {
        switch name {
        case "--db":
            invocation.db = value
        case "--entity":
            guard let entity = CatalogueEntity(rawValue: value) else { return false }
            invocation.entity = entity
        case "--scope":
            invocation.scope = value
        case "--match":
            guard let mode = MatchMode(rawValue: value) else { return false }
            invocation.mode = mode
        case "--limit":
            // Plain decimal digits only: no sign, space or underscore to interpret.
            guard (1...18).contains(value.utf8.count), value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let limit = Int(value) else { return false }
            invocation.limit = limit
        case "--format":
            guard let format = OutputFormat(rawValue: value) else { return false }
            invocation.format = format
        case "--count":
            guard let count = CountOption(rawValue: value) else { return false }
            invocation.count = count
        default:
            return false
        }
        return true
    }
}
