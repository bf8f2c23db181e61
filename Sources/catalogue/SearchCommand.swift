import ArgumentParser
import CatalogueKit

/// `catalogue search`: one search, printed.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search countries by name or capital, or products by name.",
        discussion: """
            The text is trimmed; empty text lists everything in the scope. Matching ignores case \
            and diacritics ("bogota" finds Bogotá).

            Scopes: countries name (the default; also matches aliases such as "Ivory Coast"), \
            capital, any; products all (the default) or a product type.

            Match modes: prefix (the default: the field starts with the text), contains, words \
            (every word typed starts a word of the field, ranked), terms (every term matches the \
            name, or equals the year or price).

            Examples:
              catalogue search bog --scope capital
              catalogue search cote
              catalogue search "united ki" --match words
              catalogue search ipad --entity products --scope device
              catalogue search "ipod 2007" --entity products --match terms
              catalogue search sa --limit 0 --format csv
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The search text (empty: everything).")
    var text: String = ""

    @Option(help: "What to search: \(CatalogueEntity.allCases.map(\.rawValue).joined(separator: ", ")).")
    var entity: CatalogueEntity = .countries

    @Option(help: ArgumentHelp(
        "Countries: name, capital or any. Products: all or a product type.",
        valueName: "scope"))
    var scope: String?

    @Option(name: .customLong("match"), help: "How text matches: \(MatchMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: MatchMode = .prefix

    @Option(help: "At most this many results; 0 for all.")
    var limit: Int = 50

    @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: OutputFormat = .table

    func validate() throws {
        guard limit >= 0 else {
            throw ValidationError("--limit must be 0 (no limit) or more, not \(limit)")
        }
        if entity == .countries, let scope, CountryScope(rawValue: scope.lowercased()) == nil {
            throw ValidationError(
                "unknown scope '\(scope)' for countries; valid scopes: \(CountryScope.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly)
        let pageLimit = limit == 0 ? nil : limit
        let printer = RecordPrinter(format: format)
        switch entity {
        case .countries:
            let scope = self.scope.flatMap { CountryScope(rawValue: $0.lowercased()) } ?? .name
            let results = try catalogue.search(
                CatalogueSearch.countries(matching: text, scope: scope, mode: mode), limit: pageLimit)
            printer.print(results.records.map(\.searchFields), summary: results.summary)
        case .products:
            let scope = try productScope(in: catalogue)
            let results = try catalogue.search(
                CatalogueSearch.products(matching: text, scope: scope, mode: mode), limit: pageLimit)
            printer.print(results.records.map(\.searchFields), summary: results.summary)
        }
    }

    /// The product scope, checked against the types in the catalogue.
    private func productScope(in catalogue: Catalogue) throws -> ProductScope {
        guard let scope else { return .all }
        let parsed = ProductScope(parsing: scope)
        guard case .type(let type) = parsed else { return .all }
        let types = try catalogue.productTypes()
        let folded = Folding.fold(type)
        guard types.contains(where: { Folding.fold($0) == folded }) else {
            throw ValidationError(
                "unknown product type '\(type)'; valid scopes: \((["all"] + types).joined(separator: ", "))")
        }
        return parsed
    }
}
