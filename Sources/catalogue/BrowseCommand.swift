import ArgumentParser
import CatalogueKit

/// `catalogue browse`: the sectioned list, like the WorldFacts table.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List countries or products in sections by initial letter.",
        discussion: """
            Sections are the first letter of the name after case and diacritic folding \
            ("Åland Islands" under A), then # for names that do not start with A–Z.

            Examples:
              catalogue browse
              catalogue browse --section C
              catalogue browse --scope capital --section B
              catalogue browse --entity products --scope device --format json
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What to list: \(CatalogueEntity.allCases.map(\.rawValue).joined(separator: ", ")).")
    var entity: CatalogueEntity = .countries

    @Option(help: ArgumentHelp("Countries: name or capital. Products: all or a product type.", valueName: "scope"))
    var scope: String?

    @Option(help: ArgumentHelp("Only the section with this title (A–Z or #).", valueName: "title"))
    var section: String?

    @Option(help: "Output format: table or json.")
    var format: SectionedOutputFormat = .table

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly)
        switch entity {
        case .countries:
            let request = try BrowseScope.countryRequest(scope: scope)
            try print(SectionedResultsController(catalogue: catalogue, fetchRequest: request), fields: \.searchFields)
        case .products:
            let request = try BrowseScope.productRequest(scope: scope, catalogue: catalogue)
            try print(SectionedResultsController(catalogue: catalogue, fetchRequest: request), fields: \.searchFields)
        }
    }

    private func print<R: Record>(_ controller: SectionedResultsController<R>, fields: (R) -> [RecordField]) throws {
        try controller.performFetch()
        var sections = Array(controller.sections.enumerated())
        if let wanted = section {
            sections = sections.filter { $0.element.name.uppercased() == wanted.uppercased() }
            guard !sections.isEmpty else {
                throw ValidationError(
                    "no section '\(wanted)'; sections: \(controller.sections.map(\.name).joined(separator: ", "))")
            }
        }
        let rows = try sections.map { index, info in
            (info.name, try (0..<info.numberOfObjects).map { row in
                fields(try controller.object(at: ResultIndexPath(row: row, section: index)))
            })
        }
        SectionedPrinter(format: format).print(rows)
    }
}
