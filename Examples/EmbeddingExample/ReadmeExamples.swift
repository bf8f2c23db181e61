// The code of the README's "Embedding CatalogueKit" section, verbatim, compiled as an app would
// compile it (DocumentationExamplesTests checks that every block appears here).
import CatalogueKit

func embeddingExample(path: String) throws {
    let catalogue = try Catalogue(path: path)   // created and seeded, or migrated

    // The repository: entity + scope + text + match mode -> a fetch request.
    let results = try catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
    print(results.records.map(\.name), results.summary)   // ["Colombia"] 1 item found

    // Fetch requests with typed predicates...
    let request = FetchRequest<Product>(
        predicate: .beginsWith("name", "ip", options: [.caseInsensitive, .diacriticInsensitive])
            && .greaterThanOrEqual("year", 2007),
        sortDescriptors: .byName)
    print(try catalogue.fetch(request).map(\.name))   // ["iPad", "iPad mini", "iPhone", …]

    // ...or NSPredicate format strings.
    let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@", "name", "bog")
    print(try catalogue.fetchCount(FetchRequest<Country>(predicate: predicate)))   // 0: no country name starts so

    // Writes keep folded keys, aliases and the full-text index in sync; a search inside a
    // write sees the write.
    try catalogue.write { db in
        try db.upsert(Product(name: "iPhone 3G", type: "device", year: 2008, price: 199))
        print(try db.search(CatalogueSearch.products(matching: "iphone 3")).summary)   // 1 item found
    }

    // Sections by initial letter, loaded in batches, with live changes (NSFetchedResultsController).
    let controller = SectionedResultsController(
        catalogue: catalogue, fetchRequest: FetchRequest<Country>(sortDescriptors: .byName))
    try controller.performFetch()
    print(controller.sectionIndexTitles)                                        // ["A", "B", …, "Z"]
    print(try controller.object(at: ResultIndexPath(row: 0, section: 0)).name)  // Afghanistan
    if let changes = try controller.processPendingChanges() { print(changes) }
}

@MainActor
final class SearchScreen {
    let catalogue: Catalogue
    var rows: [String] = []

    init(catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    // On every keystroke: the search runs off the main actor; the UI updates on it.
    func textDidChange(_ text: String) async throws {
        let results = try await catalogue.search(CatalogueSearch.countries(matching: text), limit: 50)
        rows = results.records.map(\.name)
    }

    // Live updates, from this process or another.
    func watch() async throws {
        for try await change in catalogue.changes(pollingInterval: .milliseconds(250)) where change.affects(Country.self) {
            print(change)   // change (thisCatalogue): country; rows: country [251]
        }
    }
}
