import CatalogueKit

/// What a command line gets, in place of swift-argument-parser's message, for the mistakes its
/// words alone make plain: a mistyped command, and a file named where the entity goes.
///
/// ```
/// catalogue serch bog                 unknown command 'serch' (did you mean 'search'?)
/// catalogue bogota                    unknown command 'bogota'; the commands are search, browse, …; to search for it: catalogue search "bogota"
/// catalogue import countries.csv      'countries.csv' is not what to import (countries or products): it comes first, then the file: catalogue import countries countries.csv
/// ```
enum UsageHint {
    /// The message for `arguments` (the whole command line, the program first), or nil for a
    /// mistake this does not recognise.
    static func message(for arguments: [String]) -> String? {
        unknownCommand(in: arguments) ?? fileForEntity(in: arguments)
    }

    /// A first word that is no command: the command it most likely meant, else the commands and
    /// how to search for the word.
    static func unknownCommand(in arguments: [String]) -> String? {
        let names = CatalogueCommand.subcommandNames
        guard let word = CommandLineWords.subcommand(in: arguments), word != "help", !names.contains(word) else { return nil }
        if let guess = ClosestName.closest(to: word, among: names) {
            return "unknown command '\(word)' (did you mean '\(guess)'?)"
        }
        return "unknown command '\(word)'; the commands are \(names.joined(separator: ", ")); "
            + "to search for it: catalogue search \"\(word)\""
    }

    /// `import` or `export` followed by a file (`-`, a path, a name with an extension) where the
    /// entity goes: the entity comes first, guessed from the file's name where it names one.
    static func fileForEntity(in arguments: [String]) -> String? {
        guard let index = CommandLineWords.subcommandIndex(in: arguments), index + 1 < arguments.count else { return nil }
        let command = arguments[index]
        guard command == "import" || command == "export" else { return nil }
        let word = arguments[index + 1]
        // A file: standard input, a path, a name with an extension (a mistyped entity keeps
        // swift-argument-parser's message, which lists the entities).
        guard word == "-" || word.contains("/") || word.contains("."), !word.hasPrefix("--") else { return nil }
        let entities = CatalogueEntity.allCases.map(\.rawValue)
        let lowercased = word.lowercased()
        let named = CatalogueEntity.allCases.first { lowercased.contains($0.rawValue) || lowercased.contains($0.singular.lowercased()) }
        let entity = named?.rawValue ?? entities.joined(separator: "|")
        let rest = arguments[(index + 1)...].map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
        return "'\(word)' is not what to \(command) (\(entities.joined(separator: " or "))): it comes first, then the file: "
            + "catalogue \(command) \(entity) \(rest)"
    }
}
