// Fuzzes the search-text → SQL/FTS compiler: any text, in every match mode and scope, gives
// results or an empty list, never an error.
import CatalogueKit

nonisolated(unsafe) private var catalogue: Catalogue?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        if catalogue == nil { catalogue = try Catalogue(path: ":memory:") }
        let catalogue = catalogue!
        for mode in MatchMode.allCases {
            for scope in CountryScope.allCases {
                _ = try catalogue.search(CatalogueSearch.countries(matching: text, scope: scope, mode: mode), limit: 5)
            }
            for scope in [ProductScope.all, .type("device"), .type(text)] {
                _ = try catalogue.search(CatalogueSearch.products(matching: text, scope: scope, mode: mode), limit: 5)
            }
        }
        if let pattern = FullTextPattern(matchingAllPrefixesIn: text) {
            precondition(!pattern.words.isEmpty)
        }
    } catch {
        fatalError("search for \(String(reflecting: text)) failed: \(error)")
    }
    return 0
}
