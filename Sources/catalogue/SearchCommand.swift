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
            finds Bogotá).

            Scopes: countries name (the default; also matches aliases such as "Ivory Coast"), \
            capital (ordered by capital), any; products all (the default) or a product type.

            Match modes: prefix (the default: the field starts with the text), contains, words \
            (every word typed starts a word of the field, ranked), terms (every term matches the \
            name, or equals the year or price).

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
              catalogue search sa --limit 0 --format csv
              catalogue search a --entity products --match contains --count exact
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The search text, joined with spaces (none: everything).", valueName: "text"))
    var words: [String] = []

    /// The entity searched without `--entity`.
    static let defaultEntity = CatalogueEntity.countries

    @Option(help: "What to search: \(CatalogueEntity.allCases.map(\.rawValue).joined(separator: ", ")).")
    var entity: CatalogueEntity = defaultEntity

    @Option(help: ScopeHelp.searchHelp, completion: ScopeHelp.searchCompletion)
    var scope: String?

    @Option(name: .customLong("match"), help: "How text matches: \(MatchMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: MatchMode = .prefix

    // Unconditional: "--limit -1" is a value to refuse, not a missing one.
    @Option(parsing: .unconditional, help: "At most this many results; 0 for all.")
    var limit: Int = 50

    @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: OutputFormat = .table

    @Option(help: "How far to count matches: capped (stop at 1,000) or exact.")
    var count: CountOption = .capped

    /// The search text: the words joined with spaces.
    var text: String {
        words.joined(separator: " ")
    }

    func validate() throws {
        guard limit >= 0 else {
            throw ValidationError("--limit must be 0 (no limit) or more, not \(limit)")
        }
        // A scope that cannot exist is refused before the catalogue is opened (or created).
        _ = try Self.fixedScope(scope, of: entity.recordType)
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        try search(entity.recordType, in: catalogue)
    }

    private func search<R: CatalogueRecord>(_ type: R.Type, in catalogue: Catalogue) throws {
        let scope = try catalogue.scope(self.scope, of: type)
        let request = try R.searchRequest(matching: text, scope: scope.key, mode: mode)
        let keys = R.entity.listFields.map(\.name)
        guard format == .table else {
            // JSON, CSV and NDJSON print the rows only: no count to spend time on.
            var page = request
            page.fetchLimit = limit == 0 ? nil : limit
            RecordPrinter(format: format).print(try catalogue.fetch(page).map(\.listFields), keys: keys, summary: "")
            return
        }
        let results = try catalogue.search(request, limit: limit == 0 ? nil : limit, count: count.limit)
        let summary = !results.isCountExact || results.totalCount > results.records.count
            ? results.shownSummary + " (--limit 0 for all)"
            : results.summary
        RecordPrinter(format: format).print(results.records.map(\.listFields), keys: keys, summary: summary)
        if results.records.isEmpty, results.totalCount == 0, !text.isEmpty {
            let suggestions = try catalogue.read { db in try R.suggestions(for: text, scope: scope.key, in: db) }
            if !suggestions.isEmpty {
                standardError("did you mean: \(suggestions.joined(separator: ", "))?")
            }
        }
    }

    private static func fixedScope<R: CatalogueRecord>(_ key: String?, of type: R.Type) throws -> SearchScope? {
        try BrowseScope.usageError { try R.entity.fixedScope(key) }
    }
}
