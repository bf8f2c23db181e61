import Foundation
import Testing
import CatalogueKit

/// The README's embedding example, as written there, so the README cannot drift from the API.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("The embedding example runs and prints what the README says")
    func embeddingExample() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("myapp/catalogue.sqlite"))

        let results = try catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
        #expect(results.records.map(\.name) == ["Colombia"])
        #expect(results.summary == "1 item found")

        let request = FetchRequest<Product>(
            predicate: .beginsWith("name", "ip", options: [.caseInsensitive, .diacriticInsensitive])
                && .greaterThanOrEqual("year", 2007),
            sortDescriptors: FetchSortDescriptor.byName)
        let products = try catalogue.read { db in try db.fetch(request) }
        #expect(products.allSatisfy { Folding.fold($0.name).hasPrefix("ip") && ($0.year ?? 0) >= 2007 })
        #expect(!products.isEmpty)

        let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@", "name", "bog")
        #expect(predicate == .beginsWith("name", "bog", options: .caseAndDiacriticInsensitive))

        try catalogue.write { db in
            try db.upsert(Product(name: "iPhone 3G", type: "device", year: 2008, price: 199))
        }

        let controller = SectionedResultsController(
            catalogue: catalogue, fetchRequest: FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName))
        try controller.performFetch()
        #expect(controller.sectionIndexTitles.first == "A")
        #expect(controller.sectionIndexTitles.last == "Z")
        #expect(try controller.object(at: ResultIndexPath(row: 0, section: 0)).name == "Afghanistan")
        #expect(try controller.processPendingChanges() == nil)
    }
}
