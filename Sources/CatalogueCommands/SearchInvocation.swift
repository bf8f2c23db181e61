import ArgumentParser
import CatalogueKit

/// One `catalogue search` as its command line chose it: the search ``SearchCommand`` runs once
/// swift-argument-parser has parsed the line, and that ``SearchCommandLine`` reads from a plain
/// line without it.
///
/// ```swift
/// let invocation = SearchInvocation(words: ["bog"], scope: "capital")
/// try invocation.validate()
/// try invocation.run()  // prints Colombia's row and "1 item found"
/// ```
struct SearchInvocation: Equatable, Sendable {
    /// `--db`: the database file or PostgreSQL URL (nil: `$CATALOGUE_DB` or the default location).
    var db: String?
    /// The search text's words, as given.
    var words: [String] = []
    /// `--entity`.
    var entity: CatalogueEntity = .countries
    /// `--scope` (nil: the entity's default scope).
    var scope: String?
    /// `--match`.
    var mode: MatchMode = .prefix
    /// `--limit`: at most this many rows; 0 for all.
    var limit = 50
    /// `--format`.
    var format: OutputFormat = .table
    /// `--count`.
    var count: CountOption = .capped

    /// The values a `catalogue search` has for the options it is not given.
    static let defaults = SearchInvocation()

    /// The search text: the words joined with spaces.
    var text: String {
        words.joined(separator: " ")
    }

    /// Throws a usage error for a negative limit or a scope the entity cannot have, before the
    /// catalogue is opened (or created).
    func validate() throws {
        guard limit >= 0 else {
            throw ValidationError("--limit must be 0 (no limit) or more, not \(limit)")
        }
        _ = try Self.fixedScope(scope, of: entity.recordType)
    }

    /// Opens the catalogue read-only (creating and seeding it on first use) and prints the
    /// search's rows; a table ends with the count, and a search that finds nothing says on
    /// stderr which other scope or entity finds something (``SearchElsewhereHint``), else
    /// suggests close names.
    func run() throws {
        let catalogue = try DatabaseInUse.open(CatalogueLocation(db: db), access: .readOnly, concurrentReads: false)
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
            // Found in another scope or entity: say where; else names close to the text. After
            // "No items found" on a terminal that shows both.
            try standardOutput.finish()
            let elsewhere = try SearchElsewhereHint.lines(text: text, mode: mode, scope: scope, of: type, in: catalogue)
            elsewhere.forEach(standardError)
            let suggestions = elsewhere.isEmpty ? try catalogue.read { db in try R.suggestions(for: text, scope: scope.key, in: db) } : []
            if !suggestions.isEmpty {
                standardError("did you mean: \(suggestions.joined(separator: ", "))?")
            }
        }
    }

    private static func fixedScope<R: CatalogueRecord>(_ key: String?, of type: R.Type) throws -> SearchScope? {
        try BrowseScope.usageError { try R.entity.fixedScope(key) }
    }
}
