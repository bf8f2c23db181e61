@testable import CatalogueCore
import CatalogueKit
import Foundation
import Testing

/// Sectioned results on every engine: sections by initial letter, index paths, batched
/// loading, search mode, descending order and NULL section values.
@Suite("Sectioned results controller")
struct SectionedResultsControllerTests {
    func countryController(_ catalogue: Catalogue, batchSize: Int = 0) -> SectionedResultsController<Country> {
        var request = FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName)
        request.fetchBatchSize = batchSize
        return SectionedResultsController(catalogue: catalogue, fetchRequest: request)
    }

    /// Section titles and counts computed from `seed/countries.json` itself, with the documented
    /// rule: first character of the folded name, A–Z, else #.
    static func referenceSections() throws -> [(String, Int)] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("seed/countries.json")
        let countries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var counts: [String: Int] = [:]
        for country in countries {
            let name = try #require(country["name"] as? String)
            let first = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars.first!
            let title = ("a"..."z").contains(first) ? String(first).uppercased() : "#"
            counts[title, default: 0] += 1
        }
        return counts.sorted { ($0.key == "#" ? "~" : $0.key) < ($1.key == "#" ? "~" : $1.key) }.map { ($0.key, $0.value) }
    }

    @Test("Countries seed: exact section titles and counts; every row once; Å/Ç/É names under A/C/E", arguments: EngineUnderTest.all)
    func countrySections(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let controller = countryController(catalogue)
        try controller.performFetch()
        let reference = try Self.referenceSections()
        #expect(controller.sections.map(\.name) == reference.map(\.0))
        #expect(controller.sections.map(\.numberOfObjects) == reference.map(\.1))
        #expect(controller.numberOfSections == reference.count)
        #expect(controller.sections.map(\.indexTitle) == reference.map(\.0))

        var seen: [Int64] = []
        var sectionOf: [String: String] = [:]
        for (index, section) in controller.sections.enumerated() {
            var previous: (String, String)?
            for row in 0..<section.numberOfObjects {
                let country = try controller.object(at: ResultIndexPath(row: row, section: index))
                seen.append(try #require(country.id))
                sectionOf[country.name] = section.name
                let key = (Folding.fold(country.name), country.name)
                if let previous { #expect(Array(previous.0.utf8).lexicographicallyPrecedes(Array(key.0.utf8)) || previous.0 == key.0) }
                previous = key
            }
        }
        #expect(seen.count == Set(seen).count)
        #expect(seen.count == (try catalogue.count(Country.self)))
        #expect(sectionOf["Åland Islands"] == "A")
        #expect(sectionOf["Côte d'Ivoire"] == "C")
        #expect(sectionOf["Curaçao"] == "C")
        #expect(sectionOf["Réunion"] == "R")
        #expect(sectionOf["Saint Barthélemy"] == "S")
    }

    @Test("indexPath(for:) finds a record or its id; object(at:) out of range throws", arguments: EngineUnderTest.all)
    func indexPaths(engine: EngineUnderTest) throws {
        let controller = countryController(try engine.sharedSeededCatalogue())
        try controller.performFetch()
        let path = ResultIndexPath(row: 3, section: 2)
        let country = try controller.object(at: path)
        #expect(controller.indexPath(for: country) == path)
        #expect(controller.indexPath(forID: country.id!) == path)
        #expect(controller.indexPath(forID: -1) == nil)
        #expect(throws: SectionedResultsError.indexPathOutOfRange(ResultIndexPath(row: 999, section: 0))) {
            try controller.object(at: ResultIndexPath(row: 999, section: 0))
        }
    }

    @Test("Only the batches read are loaded, and at most maximumLoadedBatches stay", arguments: EngineUnderTest.all)
    func batchedLoading(engine: EngineUnderTest) throws {
        let controller = countryController(try engine.sharedSeededCatalogue(), batchSize: 5)
        try controller.performFetch()
        #expect(controller.state.withLock { $0.batches.count } == 0)
        _ = try controller.object(at: ResultIndexPath(row: 0, section: 0))
        _ = try controller.object(at: ResultIndexPath(row: 4, section: 0))
        #expect(controller.state.withLock { $0.batches.count } == 1)
        _ = try controller.object(at: ResultIndexPath(row: 5, section: 0))
        #expect(controller.state.withLock { $0.batches.keys.sorted() } == [0, 1])
        for section in controller.sections.indices {
            for row in 0..<controller.numberOfObjects(inSection: section) {
                _ = try controller.object(at: ResultIndexPath(row: row, section: section))
            }
        }
        #expect(controller.state.withLock { $0.batches.count } <= SectionedResultsController<Country>.maximumLoadedBatches)
    }

    @Test("Search mode: one untitled section without index; empty text shows all; ending returns to sections", arguments: EngineUnderTest.all)
    func searchMode(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let controller = countryController(catalogue)
        try controller.performFetch()
        let sectioned = controller.sections
        try controller.search("bog", scope: .capital)
        #expect(controller.isSearchActive)
        #expect(controller.sections.count == 1)
        #expect(controller.sections[0].name == "")
        #expect(controller.sections[0].indexTitle == nil)
        #expect(controller.sectionIndexTitles.isEmpty)
        #expect(try controller.object(at: ResultIndexPath(row: 0, section: 0)).name == "Colombia")
        try controller.search("")
        #expect(controller.fetchedCount == (try catalogue.count(Country.self)))
        try controller.search("zzzz")
        #expect(controller.numberOfSections == 0)
        try controller.search("united ki", mode: .words)
        #expect(try controller.object(at: ResultIndexPath(row: 0, section: 0)).name == "United Kingdom")
        try controller.endSearch()
        #expect(!controller.isSearchActive)
        #expect(controller.sections == sectioned)
    }

    @Test("Section info is reused for an unchanged database, and a write invalidates it", arguments: EngineUnderTest.all)
    func sectionInfoCache(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        var request = FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName)
        request.fetchBatchSize = 0
        let first = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "countries")
        try first.performFetch()
        let token = try catalogue.engine.changeToken()
        #expect(try catalogue.engine.changeToken() == token, "no write, same token")
        let second = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "countries")
        try second.performFetch()
        #expect(second.sections == first.sections)
        try catalogue.write { db in _ = try db.insert(Country(code: "XA", name: "Atlantis")) }
        #expect(try catalogue.engine.changeToken() != token, "a write, a new token")
        let third = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "countries")
        try third.performFetch()
        #expect(third.sections[0].numberOfObjects == first.sections[0].numberOfObjects + 1)
    }

    @Test("Descending order reverses sections; NULL section values go under #", arguments: EngineUnderTest.all)
    func descendingAndNullKeys(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let descending = SectionedResultsController(
            catalogue: catalogue,
            fetchRequest: FetchRequest<Country>(sortDescriptors: [
                FetchSortDescriptor("name", ascending: false, options: .caseAndDiacriticInsensitive),
                FetchSortDescriptor("name", ascending: false), FetchSortDescriptor("id", ascending: false),
            ]))
        try descending.performFetch()
        let ascending = countryController(catalogue)
        try ascending.performFetch()
        #expect(descending.sections.map(\.name) == ascending.sections.map(\.name).reversed())
        #expect(try descending.object(at: ResultIndexPath(row: 0, section: 0)).name == "Zimbabwe")

        let byCapital = SectionedResultsController(
            catalogue: catalogue,
            fetchRequest: FetchRequest<Country>(sortDescriptors: [
                FetchSortDescriptor("capital", options: .caseAndDiacriticInsensitive), FetchSortDescriptor("id"),
            ]))
        try byCapital.performFetch()
        let last = try #require(byCapital.sections.last)
        #expect(last.name == "#")
        let noCapital = try catalogue.count(Country.self, where: .equals("capital", nil))
        #expect(noCapital > 0)
        #expect(last.numberOfObjects >= noCapital)
        #expect(try byCapital.object(at: ResultIndexPath(row: 0, section: byCapital.numberOfSections - 1)).capital == nil)
    }

    @Test("Without a section column: one untitled section in request order", arguments: EngineUnderTest.all)
    func unsectioned(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let controller = SectionedResultsController(
            catalogue: catalogue, fetchRequest: FetchRequest<Product>(predicate: .equals("type", "device")), sectioning: .none)
        try controller.performFetch()
        #expect(controller.sections.count == 1)
        #expect(controller.sections[0].name == "")
        #expect(controller.fetchedCount == (try catalogue.records(FetchRequest<Product>(predicate: .equals("type", "device"))).count))
    }

    @Test("Sectioned by a named column: the capital's initials; text that is no column is refused, never read", arguments: EngineUnderTest.all)
    func byNamedColumn(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let request = FetchRequest<Country>(predicate: .equals("continent", "Europe"), sortDescriptors: FetchSortDescriptor.byName)
        let byCapital = SectionedResultsController(catalogue: catalogue, fetchRequest: request, sectioning: .byColumn("capital"))
        try byCapital.performFetch()
        let europe = try catalogue.records(request)
        #expect(byCapital.fetchedCount == europe.count)
        let initials = Set(europe.compactMap { $0.capital.flatMap { Folding.fold($0).first }.map { String($0).uppercased() } })
        #expect(Set(byCapital.sections.map(\.name)).isSuperset(of: initials.filter { ("A"..."Z").contains($0) }))
        // Spliced into the section statement, these would read another table, one character
        // a row, as the section titles (the first on SQLite, the second on PostgreSQL).
        let hostile = [
            "name, substr((SELECT group_concat(name) FROM product), country.id, 1)",
            "name, 1), (SELECT string_agg(name, ',') FROM product), left(country.name",
            "colour", "",
        ]
        for column in hostile {
            let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request, sectioning: .byColumn(column))
            #expect(throws: FetchRequestError.unknownColumn(column, table: "country", known: Country.schema.selection)) {
                try controller.performFetch()
            }
        }
    }
}
