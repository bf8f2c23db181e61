import CatalogueKit
import Foundation

// Helpers shared by the engine suites: engine-neutral (the library's API only).

extension Catalogue {
    /// The records of `request`, read in a read transaction.
    func records<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        try read { db in try db.fetch(request) }
    }

    /// How many records of `type` there are.
    func count<R: Record>(_ type: R.Type, where predicate: FetchPredicate = .true) throws -> Int {
        try fetchCount(FetchRequest<R>(predicate: predicate))
    }

    /// Every country, in id order.
    func allCountries() throws -> [Country] {
        try records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("id")]))
    }

    /// The names `search` gives page after page, `size` at a time, until `count` names, and the
    /// total each page reported.
    func pagedNames(_ request: FetchRequest<Product>, size: Int, count: Int) throws -> (names: [String], totals: [Int]) {
        var names: [String] = []
        var totals: [Int] = []
        var offset = 0
        while offset < count {
            let page = try search(request, limit: size, offset: offset)
            names += page.records.map(\.name)
            totals.append(page.totalCount)
            offset += size
        }
        return (names, totals)
    }
}
