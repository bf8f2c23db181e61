import ArgumentParser
import CatalogueKit
import Foundation

/// The scopes `--scope` accepts, for its help and its shell completions, read from the
/// catalogue when it exists (product types live in the data) and never creating one.
///
/// Help reads the catalogue only when help was asked for (`-h`, `--help`, `catalogue help …`):
/// an ordinary run does not pay for it. Completions run `catalogue` itself when the shell asks
/// (swift-argument-parser's custom completion), with the `--db` and `--entity` typed so far.
///
/// ```
/// $ catalogue search --scope <TAB>
/// all  any  birthdays  capital  desktop  device  funerals  name  portable  weddings
/// ```
enum ScopeHelp {
    /// The `--scope` help of `search`: every entity's scopes.
    static let searchHelp = ArgumentHelp(
        "The scope: " + scopeSummary(browsing: false) + ".",
        discussion: "Compared ignoring case and diacritics.",
        valueName: "scope")

    /// The `--scope` help of `browse` and `index`: the scopes with sections.
    static let browseHelp = ArgumentHelp(
        "The sectioned scope: " + scopeSummary(browsing: true) + ".", valueName: "scope")

    /// Completes `search --scope`.
    static let searchCompletion = CompletionKind.custom { words, _, _ in completions(words: words, browsing: false) }
    /// Completes `browse --scope` and `index --scope`.
    static let browseCompletion = CompletionKind.custom { words, _, _ in completions(words: words, browsing: true) }

    /// "countries: name (default), capital, any; products: all (default) or a product type: …".
    static func scopeSummary(browsing: Bool) -> String {
        let catalogue = isHelpRequest(CommandLine.arguments)
            ? CatalogueLocation(db: option("--db", in: CommandLine.arguments)).openExisting()
            : nil
        return CatalogueEntity.allCases.map { summary(of: $0.recordType, browsing: browsing, catalogue: catalogue) }
            .joined(separator: "; ")
    }

    private static func summary<R: CatalogueRecord>(of type: R.Type, browsing: Bool, catalogue: Catalogue?) -> String {
        let entity = R.entity
        var fixed = entity.scopes.filter { !browsing || $0.isBrowsable }.map(\.key)
        fixed[0] += " (default)"
        var text = "\(entity.plural): \(fixed.joined(separator: ", "))"
        if let column = entity.typeScopeColumn {
            text += " or a \(entity.singular) \(column)"
            if let scopes = try? catalogue?.scopes(of: type) {
                let types = scopes.compactMap(\.typeValue)
                text += types.isEmpty ? " (none in this catalogue yet)" : ": " + types.joined(separator: ", ")
            }
        }
        return text
    }

    /// The scope keys for a command line being completed.
    static func completions(words: [String], browsing: Bool) -> [String] {
        let entity = option("--entity", in: words).flatMap { CatalogueEntity(argument: $0) } ?? .countries
        let catalogue = CatalogueLocation(db: option("--db", in: words)).openExisting()
        return keys(of: entity.recordType, browsing: browsing, catalogue: catalogue)
    }

    private static func keys<R: CatalogueRecord>(of type: R.Type, browsing: Bool, catalogue: Catalogue?) -> [String] {
        let scopes = (try? catalogue?.scopes(of: type)) ?? R.entity.scopes
        return scopes.filter { !browsing || $0.isBrowsable }.map(\.key)
    }

    /// Whether `arguments` ask for help.
    static func isHelpRequest(_ arguments: [String]) -> Bool {
        let words = arguments.dropFirst()
        return words.contains { $0 == "-h" || $0 == "--help" || $0 == "-help" } || CommandLineWords.subcommand(in: arguments) == "help"
    }

    /// The value of `name` (`--db x`, `--db=x`; the last one given) in `words`.
    static func option(_ name: String, in words: [String]) -> String? {
        var value: String?
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            if word == "--" { break }
            if word == name, index + 1 < words.endIndex {
                value = words[index + 1]
                index += 1
            } else if word.hasPrefix(name + "=") {
                value = String(word.dropFirst(name.count + 1))
            }
            index += 1
        }
        return value
    }
}

/// The words of the command line, read before swift-argument-parser parses them.
enum CommandLineWords {
    /// The subcommand named in `arguments` (the first word that is not an option or the value
    /// of `--db`), if any.
    static func subcommand(in arguments: [String]) -> String? {
        subcommandIndex(in: arguments).map { arguments[$0] }
    }

    /// The index in `arguments` of the word ``subcommand(in:)`` names.
    static func subcommandIndex(in arguments: [String]) -> Int? {
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if word == "--db" {
                index += 2
                continue
            }
            if word.hasPrefix("-") {
                index += 1
                continue
            }
            return index
        }
        return nil
    }
}
