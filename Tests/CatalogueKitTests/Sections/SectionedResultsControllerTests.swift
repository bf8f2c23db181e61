import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// The SQLite side of sectioned results: section information reused without running a
/// statement. (The engine-neutral tests, on SQLite and PostgreSQL, are in
/// CatalogueEngineTests/SectionedResultsControllerTests.)
@Suite("Sectioned results controller (SQLite)")
struct SectionedResultsControllerTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    func countryController(cacheName: String? = nil, batchSize: Int = 0) -> SectionedResultsController<Country> {
        var request = FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName)
        request.fetchBatchSize = batchSize
        return SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: cacheName)
    }

    @Test("Section info is not recounted for an unchanged database, and any write invalidates it")
    func sectionInfoCache() throws {
        let first = countryController(cacheName: "countries")
        try first.performFetch()
        let second = countryController(cacheName: "countries")
        let compiledBefore = try catalogue.database.inDatabase { $0.compiledStatementCount }
        let scans = try countScans { try second.performFetch() }
        #expect(scans == 0, "a cached section arrangement was recomputed")
        #expect(second.sections == first.sections)
        #expect(try catalogue.database.inDatabase { $0.compiledStatementCount } == compiledBefore)

        try catalogue.write { db in _ = try db.insert(Country(code: "XA", name: "Atlantis")) }
        let third = countryController(cacheName: "countries")
        #expect(try countScans { try third.performFetch() } == 1)
        #expect(third.sections[0].numberOfObjects == first.sections[0].numberOfObjects + 1)
    }

    /// How many times `body` reads every row of the country table to build sections.
    private func countScans(_ body: () throws -> Void) throws -> Int {
        let before = try catalogue.database.inDatabase { db in
            try db.cachedStatement(try FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName)
                .select("country.id, country.name, country.name_key").sql).runCount
        }
        try body()
        let after = try catalogue.database.inDatabase { db in
            try db.cachedStatement(try FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName)
                .select("country.id, country.name, country.name_key").sql).runCount
        }
        return after - before
    }
}
