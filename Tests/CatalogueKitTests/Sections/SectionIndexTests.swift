import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

@Suite("Section index")
struct SectionIndexTests {
    let controller: SectionedResultsController<Country>

    init() throws {
        controller = SectionedResultsController(
            catalogue: try seededCatalogue(), fetchRequest: FetchRequest<Country>(sortDescriptors: FetchSortDescriptor.byName))
        try controller.performFetch()
    }

    func section(named name: String) throws -> Int {
        try #require(controller.sections.firstIndex { $0.name == name })
    }

    @Test("Index titles, with and without the search entry")
    func titles() {
        let titles = controller.sectionIndexTitles
        #expect(titles == controller.sections.map(\.name))
        #expect(controller.sectionIndexTitles(includingSearch: true) == ["{search}"] + titles)
        #expect(controller.sectionIndexTitles(fullAlphabet: true) == InitialLetterSectionRule().indexTitles)
        #expect(!titles.contains("X"))  // no country starts with X: the full index has letters without sections
    }

    @Test("Without the search entry, each title maps to its section")
    func withoutSearch() throws {
        for (index, title) in controller.sectionIndexTitles.enumerated() {
            #expect(controller.section(forSectionIndexTitle: title, at: index) == .section(index))
        }
    }

    @Test("With the search entry: entry 0 scrolls to the top, every other index shifts by one")
    func withSearch() throws {
        let titles = controller.sectionIndexTitles(includingSearch: true)
        #expect(controller.section(forSectionIndexTitle: titles[0], at: 0, includingSearch: true) == .top)
        for index in 1..<titles.count {
            #expect(controller.section(forSectionIndexTitle: titles[index], at: index, includingSearch: true) == .section(index - 1))
        }
    }

    @Test("A full A–Z index: a letter without a section goes to the nearest following one, else the last")
    func missingLetters() throws {
        let full = controller.sectionIndexTitles(includingSearch: true, fullAlphabet: true)
        let x = try #require(full.firstIndex(of: "X"))
        #expect(controller.section(forSectionIndexTitle: "X", at: x, includingSearch: true) == .section(try section(named: "Y")))
        #expect(controller.section(forSectionIndexTitle: "#", at: full.count - 1, includingSearch: true)
            == .section(controller.numberOfSections - 1))
        #expect(controller.section(forSectionIndexTitle: "A", at: 1, includingSearch: true) == .section(0))
    }

    @Test("While searching there is no index")
    func searching() throws {
        try controller.search("co")
        #expect(controller.sectionIndexTitles(includingSearch: true, fullAlphabet: true).isEmpty)
        try controller.endSearch()
        #expect(!controller.sectionIndexTitles.isEmpty)
    }
}
