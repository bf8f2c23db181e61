import ArgumentParser
import CatalogueKit

/// `catalogue search`: one search, printed.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search countries by name or capital, or products by name.",
        discussion: """
            The text is trimmed; empty text lists everything in the scope. Several words are \
            joined with spaces, as grep-style tools do: catalogue search united kingdom is \
            catalogue search "united kingdom". Matching ignores case and diacritics ("bogota" \
            finds Bogotá), and ’ is ' ("cote d’" finds Côte d'Ivoire).

            Scopes: countries name (the default; also matches aliases such as "Ivory Coast"), \
            capital (ordered by capital), any; products all (the default) or a product type.

            Match modes: prefix (the default: the field starts with the text), contains, words \
            (every word typed starts a word of the field, ranked), terms (every term matches the \
            name, or equals the year or price), fuzzy (words, forgiving one typo in a word of 5 to \
            8 characters and two in a longer one; exact matches first).

            Tables end with "N items found", or "50 of 250 shown (--limit 0 for all)" when \
            --limit cut the list; JSON, CSV and NDJSON hold the rows only. Counting stops at \
            1,000 ("50 of more than 1,000 shown"), so a search of a large catalogue never waits \
            for a full count; --count exact counts every match.

            Examples:
              catalogue search bog --scope capital
              catalogue search cote
              catalogue search united ki --match words
              catalogue search ipad --entity products --scope device
              catalogue search "ipod 2007" --entity products --match terms
              catalogue search phillipines --match fuzzy
              catalogue search sa --limit 0 --format csv
              catalogue search a --entity products --match contains --count exact
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The search text, joined with spaces (none: everything).", valueName: "text"))
    var words: [String] = SearchInvocation.defaults.words

    @Option(help: "What to search: \(CatalogueEntity.allCases.map(\.rawValue).joined(separator: ", ")).")
    var entity: CatalogueEntity = SearchInvocation.defaults.entity

    @Option(help: ScopeHelp.searchHelp, completion: ScopeHelp.searchCompletion)
    var scope: String?

    @Option(name: .customLong("match"), help: "How text matches: \(MatchMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: MatchMode = SearchInvocation.defaults.mode

    // Unconditional: "--limit -1" is a value to refuse, not a missing one.
    @Option(parsing: .unconditional, help: "At most this many results; 0 for all.")
    var limit: Int = SearchInvocation.defaults.limit

    @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: OutputFormat = SearchInvocation.defaults.format

    @Option(help: "How far to count matches: capped (stop at 1,000) or exact.")
    var count: CountOption = SearchInvocation.defaults.count

    /// The search these options choose.
    var invocation: SearchInvocation {
        SearchInvocation(
            db: global.db, words: words, entity: entity, scope: scope, mode: mode, limit: limit, format: format, count: count)
    }

    func validate() throws {
        try invocation.validate()
    }

    func run() throws {
        try invocation.run()
    }
}
