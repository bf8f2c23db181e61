// The code of the DocC article "Sectioned results", verbatim, compiled as an app would compile
// it. `TableView` stands in for UIKit's `UITableView` (the article's code uses its methods).
import CatalogueKit

/// The `UITableView` methods the article calls, for compiling it on Linux.
final class TableView {
    private(set) var log: [String] = []
    func performBatchUpdates(_ updates: () -> Void) { updates() }
    func deleteRows(at paths: [ResultIndexPath]) { log.append("delete rows \(paths)") }
    func insertRows(at paths: [ResultIndexPath]) { log.append("insert rows \(paths)") }
    func moveRow(at from: ResultIndexPath, to: ResultIndexPath) { log.append("move \(from) \(to)") }
    func reloadRows(at paths: [ResultIndexPath]) { log.append("reload \(paths)") }
    func deleteSections(_ sections: [Int]) { log.append("delete sections \(sections)") }
    func insertSections(_ sections: [Int]) { log.append("insert sections \(sections)") }
}

func makeController(catalogue: Catalogue) throws -> SectionedResultsController<Country> {
    let controller = SectionedResultsController(
        catalogue: catalogue,
        fetchRequest: FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName),
        cacheName: "countries")
    try controller.performFetch()
    return controller
}

/// A table view's data source over a controller.
struct CountriesDataSource {
    let controller: SectionedResultsController<Country>

    func numberOfSections() -> Int {
        controller.numberOfSections
    }

    func numberOfRows(inSection section: Int) -> Int {
        controller.numberOfObjects(inSection: section)
    }

    func titleForHeader(inSection section: Int) -> String? {
        controller.isSearchActive ? nil : controller.sections[section].name
    }

    func cell(at indexPath: ResultIndexPath) throws -> String {
        let country = try controller.object(at: indexPath)   // loads its batch on first use
        return "\(country.name) — \(country.capital ?? "")"
    }

    // The index down the right edge, with the magnifying glass on top.
    func sectionIndexTitles() -> [String] {
        controller.sectionIndexTitles(includingSearch: true)
    }

    func section(forSectionIndexTitle title: String, at index: Int) -> SectionIndexTarget? {
        controller.section(forSectionIndexTitle: title, at: index, includingSearch: true)
        // .top for the search entry; .section(i) otherwise (a missing letter goes to the next section)
    }
}

func searchCapitals(controller: SectionedResultsController<Country>) throws {
    try controller.search("bog", scope: .capital)   // on every keystroke
    print(controller.sections.map(\.numberOfObjects))   // [1]: one untitled section, Colombia
    try controller.endSearch()                       // back to A–Z
}

func applyChanges(controller: SectionedResultsController<Country>, tableView: TableView) async throws {
    for try await changes in controller.changeSets() {
        tableView.performBatchUpdates {
            for change in changes.changes {
                switch change {
                case .deleteRow(let path): tableView.deleteRows(at: [path])
                case .insertRow(let path): tableView.insertRows(at: [path])
                case .moveRow(let from, let to): tableView.moveRow(at: from, to: to)
                case .updateRow(_, let path): tableView.reloadRows(at: [path])
                case .deleteSection(let index): tableView.deleteSections([index])
                case .insertSection(let index): tableView.insertSections([index])
                }
            }
        }
    }
}

struct SwedishSectionRule: SectionRule {
    func sectionName(first: Unicode.Scalar?, foldedFirst: Unicode.Scalar?) -> String {
        if let first, let letter = ["Å", "Ä", "Ö"].first(where: { $0 == String(first).uppercased() }) {
            return letter
        }
        return InitialLetterSectionRule().sectionName(first: first, foldedFirst: foldedFirst)
    }
    var indexTitles: [String] { InitialLetterSectionRule.letters + ["Å", "Ä", "Ö", "#"] }
}

func swedishController(catalogue: Catalogue, request: FetchRequest<Country>) -> SectionedResultsController<Country> {
    let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request, rule: SwedishSectionRule())
    return controller
}
