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
              catalogue index --scope capital
              catalogue index products --format json
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var entityChoice: EntityChoice

    /// The entity listed.
    var entity: CatalogueEntity { entityChoice.chosen }

    @Option(help: ScopeHelp.browseHelp, completion: ScopeHelp.browseCompletion)
    var scope: String?

    @Option(help: "Output format: table or json.")
    var format: SectionedOutputFormat = .table

    func validate() throws {
        try BrowseScope.validate(scope, of: entity.recordType)
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        let sections = try sections(of: entity.recordType, in: catalogue)
        switch format {
        case .table:
            let width = sections.map(\.name.count).max() ?? 1
            for section in sections {
                standardOutput.print(section.name + String(repeating: " ", count: width - section.name.count + 2)
                    + FieldFormat.grouped(Int64(section.numberOfObjects)))
            }
        case .json:
            standardOutput.print("[" + sections.map {
                "{\"title\":\(JSONText.string($0.name)),\"count\":\($0.numberOfObjects)}"
            }.joined(separator: ",") + "]")
        }
    }

    private func sections<R: CatalogueRecord>(of type: R.Type, in catalogue: Catalogue) throws -> [SectionInfo] {
        let controller = try BrowseScope.controller(type, scope: scope, catalogue: catalogue)
        try controller.performFetch()
        return controller.sections
    }
}
