import ArgumentParser
import CatalogueKit

/// `catalogue browse`: the sectioned list, like the WorldFacts table.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List countries or products in sections by initial letter.",
        discussion: """
            Sections are the first letter of the name (or, in the capital scope, of the \
            capital) after case and diacritic folding ("Åland Islands" under A), then # for \
            names that do not start with A–Z. Scopes that only search (a country's any) have no \
            sections.

            Examples:
              catalogue browse
              catalogue browse --section C
              catalogue browse --scope capital --section B
              catalogue browse products --scope device --format json
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var entityChoice: EntityChoice

    /// The entity listed.
    var entity: CatalogueEntity { entityChoice.chosen }

    @Option(help: ScopeHelp.browseHelp, completion: ScopeHelp.browseCompletion)
    var scope: String?

    @Option(help: ArgumentHelp("Only the section with this title (A–Z or #, in any case, with or without diacritics).", valueName: "title"))
    var section: String?

    @Option(help: "Output format: table or json.")
    var format: SectionedOutputFormat = .table

    func validate() throws {
        try BrowseScope.validate(scope, of: entity.recordType)
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        try browse(entity.recordType, in: catalogue)
    }

    private func browse<R: CatalogueRecord>(_ type: R.Type, in catalogue: Catalogue) throws {
        let controller = try BrowseScope.controller(type, scope: scope, catalogue: catalogue)
        try controller.performFetch()
        var sections = Array(controller.sections.enumerated())
        if let wanted = section {
            sections = sections.filter { Folding.fold($0.element.name) == Folding.fold(wanted) }
            guard !sections.isEmpty else {
                throw ValidationError(
                    "no section '\(wanted)'; sections: \(controller.sections.map(\.name).joined(separator: ", "))")
            }
        }
        let rows = try sections.map { index, info in
            (info.name, try (0..<info.numberOfObjects).map { row in
                try controller.object(at: ResultIndexPath(row: row, section: index)).listFields
            })
        }
        SectionedPrinter(format: format).print(rows)
    }
}
