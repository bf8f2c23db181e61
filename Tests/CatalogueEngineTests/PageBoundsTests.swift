import CatalogueKit
import Testing

/// A request's limit and offset at the ends of `Int`: negative ones are refused with one error
/// on every engine (SQLite read a negative limit as none, PostgreSQL refused it), and the
/// largest ones give an empty or whole page instead of trapping on `offset + limit`.
@Suite("Page bounds")
struct PageBoundsTests {
    @Test("Negative limits and offsets are refused; the largest ones read what is there", arguments: EngineUnderTest.all)
    func extremes(engine: EngineUnderTest) throws {
        let catalogue = try engine.sharedSeededCatalogue()
        let all = try catalogue.records(CatalogueSearch.countries(matching: "", mode: .prefix)).map(\.name)
        // Each mode has a page plan of its own: an ordered read, key ranges, tiers, full text.
        for mode in MatchMode.allCases {
            for text in ["", "a", "bo", "united"] {
                var request = CatalogueSearch.countries(matching: text, mode: mode)
                let names = try catalogue.records(request).map(\.name)
                for (limit, offset) in [(-1, 0), (10, -1), (-5, -5)] {
                    request.fetchLimit = limit
                    request.fetchOffset = offset
                    #expect(throws: FetchRequestError.negativeLimitOrOffset(limit: limit, offset: offset), "\(mode) \(text)") {
                        try catalogue.records(request)
                    }
                }
                request.fetchLimit = 10
                request.fetchOffset = Int.max
                #expect(try catalogue.records(request).isEmpty, "\(mode) \(text)")
                request.fetchLimit = Int.max
                request.fetchOffset = 1
                #expect(try catalogue.records(request).map(\.name) == Array(names.dropFirst()), "\(mode) \(text)")
                request.fetchOffset = 0
                let page = try catalogue.search(request, limit: 3, offset: Int.max, count: .capped(at: Int.max))
                #expect(page.records.isEmpty && page.totalCount == names.count, "\(mode) \(text)")
            }
        }
        #expect(all.count == 250)
    }
}
