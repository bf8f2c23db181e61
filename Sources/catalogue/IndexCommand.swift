import ArgumentParser
import CatalogueKit

/// `catalogue index`: the section index titles with their counts.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Print the section index: each initial letter and how many records it has.",
        discussion: """
            Examples:
              catalogue index
              catalogue index --entity products --format json
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What to index: \(CatalogueEntity.allCases.map(\.rawValue).joined(separator: ", ")).")
    var entity: CatalogueEntity = .countries

    @Option(help: ArgumentHelp("Countries: name or capital. Products: all or a product type.", valueName: "scope"))
    var scope: String?

    @Option(help: "Output format: table or json.")
    var format: SectionedOutputFormat = .table

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly)
        let sections: [SectionInfo]
        switch entity {
        case .countries:
            let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: try BrowseScope.countryRequest(scope: scope))
            try controller.performFetch()
            sections = controller.sections
        case .products:
            let request = try BrowseScope.productRequest(scope: scope, catalogue: catalogue)
            let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
            try controller.performFetch()
            sections = controller.sections
        }
        switch format {
        case .table:
            let width = sections.map(\.name.count).max() ?? 1
            for section in sections {
                standardOutput.print(section.name + String(repeating: " ", count: width - section.name.count + 2) + String(section.numberOfObjects))
            }
        case .json:
            standardOutput.print("[" + sections.map {
                "{\"title\":\(JSONText.string($0.name)),\"count\":\($0.numberOfObjects)}"
            }.joined(separator: ",") + "]")
        }
    }
}
