import Testing
@testable import CatalogueCommands

@Suite("ListLayout: display lines of headers and rows")
struct ListLayoutTests {
    let layout = InteractiveFixtures.browseLayout([("A", 2), ("B", 1), ("D", 3)])

    @Test("Each section has a header line before its rows")
    func lines() {
        #expect(layout.totalLines == 9)
        let lines = (0..<layout.totalLines).map { layout.line(at: $0) }
        #expect(lines == [
            .header(section: 0), .record(position: 0), .record(position: 1),
            .header(section: 1), .record(position: 2),
            .header(section: 2), .record(position: 3), .record(position: 4), .record(position: 5),
        ])
        #expect(layout.line(at: 9) == nil)
        #expect(layout.line(at: -1) == nil)
    }

    @Test("Records map back to their display lines and sections")
    func positions() {
        #expect((0..<6).map { layout.displayLine(ofRecord: $0) } == [1, 2, 4, 6, 7, 8])
        #expect((0..<6).map { layout.section(containing: $0) } == [0, 0, 1, 2, 2, 2])
        #expect(layout.headerLine(ofSection: 2) == 5)
    }

    @Test("The records on a range of lines")
    func recordsOnLines() {
        #expect(layout.records(onLines: 0..<4) == 0..<2)
        #expect(layout.records(onLines: 3..<7) == 2..<4)
        #expect(layout.records(onLines: 8..<20) == 5..<6)
        #expect(layout.records(onLines: 20..<30) == 0..<0)
    }

    @Test("Search layouts have no headers: line n is record n")
    func unsectioned() {
        let search = InteractiveFixtures.searchLayout(count: 3)
        #expect(!search.isSectioned)
        #expect(search.totalLines == 3)
        #expect(search.line(at: 2) == .record(position: 2))
        #expect(search.displayLine(ofRecord: 2) == 2)
        #expect(search.records(onLines: 1..<10) == 1..<3)
    }
}
