import CatalogueKit
import Foundation
import Testing

/// Scopes as data: each entity's fixed scopes, the product types read from the catalogue,
/// resolving what a user typed, sectioned lists, and counting every scope without loading rows.
@Suite("Search scopes")
struct SearchScopeTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    @Test("Countries: name (and aliases), capital (ordered and sectioned by capital), any (search only)")
    func countryScopes() throws {
        let scopes = try catalogue.scopes(of: Country.self)
        #expect(scopes.map(\.key) == ["name", "capital", "any"])
        #expect(scopes.map(\.matchedFields) == [["name", "aliases"], ["capital"], ["name", "aliases", "capital"]])
        #expect(scopes.map(\.orderField) == ["name", "capital", "name"])
        #expect(scopes.map(\.isBrowsable) == [true, true, false])
        #expect(Country.entity.defaultScope.key == "name")
    }

    @Test("Products: all, then one scope per type in the catalogue, in folded order, as stored")
    func productScopes() throws {
        try catalogue.write { db in
            try db.upsert(Product(name: "Brass kettle", type: "Kitchenware"))
            try db.upsert(Product(name: "Copper kettle", type: "kitchenware"))
        }
        let scopes = try catalogue.scopes(of: Product.self)
        #expect(scopes.first?.key == "all")
        let types = scopes.compactMap(\.typeValue)
        #expect(types == types.sorted { Folding.fold($0) < Folding.fold($1) })
        #expect(types.filter { Folding.fold($0) == "kitchenware" }.count == 1)
        #expect(types.contains("device"))
        let device = try #require(scopes.first { $0.typeValue == "device" })
        #expect(device == Product.entity.typeScope("device"))
        #expect(device.title == "Device" && device.matchedFields == ["name"] && device.isBrowsable)
        #expect(try catalogue.productTypes() == types)
    }

    @Test("What a user types resolves ignoring case and diacritics; unknown and search-only scopes are refused")
    func resolving() throws {
        #expect(try catalogue.scope(nil, of: Country.self).key == "name")
        #expect(try catalogue.scope("CAPITAL", of: Country.self).key == "capital")
        #expect(try catalogue.scope("Device", of: Product.self).typeValue == "device")
        #expect(try catalogue.scope("ALL", of: Product.self).key == "all")
        #expect(throws: SearchScopeError(scope: "planet", entity: .countries, validScopes: ["name", "capital", "any"])) {
            try catalogue.scope("planet", of: Country.self)
        }
        #expect(throws: SearchScopeError(scope: "any", entity: .countries, validScopes: ["name", "capital"], isSearchOnly: true)) {
            try catalogue.scope("any", of: Country.self, browsing: true)
        }
        let toys = #expect(throws: SearchScopeError.self) { try catalogue.scope("toys", of: Product.self) }
        #expect(toys?.validScopes.first == "all")
        #expect(toys?.description.hasPrefix("unknown product type 'toys' for products; valid scopes: all, birthdays,") == true)
        // A mistyped scope or type names the one it most likely meant.
        let capital = #expect(throws: SearchScopeError.self) { try catalogue.scope("captial", of: Country.self) }
        #expect(capital?.description == "unknown scope 'captial' for countries (did you mean 'capital'?); valid scopes: name, capital, any")
        // Thousands of product types: twenty listed, the rest counted.
        let many = SearchScopeError(scope: "typ", entity: .products, validScopes: ["all"] + (0..<5_000).map { "type \($0)" })
        #expect(many.description.hasSuffix("valid scopes: all, " + (0..<19).map { "type \($0)" }.joined(separator: ", ") + " and 4,981 more"))
        let device = #expect(throws: SearchScopeError.self) { try catalogue.scope("devcie", of: Product.self) }
        #expect(device?.description.hasPrefix("unknown product type 'devcie' for products (did you mean 'device'?); valid scopes: all,") == true)
        // Without a catalogue: fixed scopes resolve, a possible type waits for one.
        #expect(try Country.entity.fixedScope("Capital")?.key == "capital")
        #expect(try Product.entity.fixedScope("device") == nil)
        #expect(throws: SearchScopeError.self) { try Country.entity.fixedScope("device") }
    }

    @Test("A scope's sectioned list: every record with a value in its order field, in its order")
    func browseRequests() throws {
        let capital = Country.entity.browseRequest(try catalogue.scope("capital", of: Country.self))
        #expect(capital.sortDescriptors == FetchSortDescriptor.by("capital"))
        let capitals = try catalogue.records(capital).map { $0.capital ?? "" }
        #expect(!capitals.contains(""))
        #expect(capitals.map { Folding.fold($0) } == capitals.map { Folding.fold($0) }.sorted())
        let devices = try catalogue.records(Product.entity.browseRequest(Product.entity.typeScope("DEVICE")))
        #expect(!devices.isEmpty && devices.allSatisfy { $0.type == "device" })
        let all = Country.entity.browseRequest(Country.entity.defaultScope)
        #expect(all.predicate == .true)
    }

    @Test("Scope counts: each strategy gives every scope's exact count, for every mode", arguments: MatchMode.allCases)
    func counts(mode: MatchMode) throws {
        let scopes = try catalogue.scopes(of: Product.self)
        for text in ["", "i", "ip", "cr", "ipod 2007", "zzz"] {
            let expected = try scopes.map { try catalogue.records(Product.searchRequest(matching: text, scope: $0.key, mode: mode)).count }
            for counting in [TypeScopeCounting.automatic, .eachScope, .grouped] {
                let counts = try catalogue.counts(of: scopes, counting: counting) {
                    try Product.searchRequest(matching: text, scope: $0.key, mode: mode)
                }
                #expect(counts == expected, "\(mode) '\(text)' \(counting)")
            }
        }
        let countries = try catalogue.scopes(of: Country.self)
        let browse = try catalogue.counts(of: countries.filter(\.isBrowsable)) { Country.entity.browseRequest($0) }
        #expect(browse[0] == (try catalogue.rowCount("country")))
        #expect(browse[1] == (try catalogue.records(Country.entity.browseRequest(countries[1])).count))
    }

    @Test("Grouped counts: one statement, keyed by the column's values")
    func groupedCounts() throws {
        let counts = try catalogue.fetchCounts(CatalogueSearch.products(matching: "ip"), groupedBy: "type_key")
        let products = try catalogue.records(CatalogueSearch.products(matching: "ip"))
        #expect(counts == Dictionary(grouping: products, by: { Folding.fold($0.type) }).mapValues(\.count))
        #expect(try catalogue.fetchCounts(CatalogueSearch.products(matching: "zzz"), groupedBy: "type_key").isEmpty)
        let ranked = try catalogue.fetchCounts(CatalogueSearch.products(matching: "ip", mode: .words), groupedBy: "type_key")
        #expect(ranked.values.reduce(0, +) == (try catalogue.records(CatalogueSearch.products(matching: "ip", mode: .words)).count))
    }

    @Test("Lookups: a country by its two-letter code in any case, a product by its id")
    func lookups() throws {
        let code = Country.entity.lookup
        #expect(code.normalizedKey("co") == "CO")
        #expect(code.normalizedKey("Colombia") == nil)
        #expect(code.normalizedKey("C1") == nil)
        #expect(code.keyDescription == "two letters, e.g. CO")
        #expect(try catalogue.read { try $0.fetchFirst(code.request(for: "CO", of: Country.self)) }?.name == "Colombia")
        let id = Product.entity.lookup
        #expect(id.normalizedKey("5") == "5" && id.normalizedKey("ipad") == nil && id.normalizedKey("٥") == nil)
        #expect(id.keyDescription == "a number")
        #expect(try catalogue.read { try $0.fetchFirst(id.request(for: "5", of: Product.self)) }?.name == "iPad mini")
    }

    @Test("Counts read the same way everywhere")
    func countTexts() {
        #expect(ResultCountText.found(0) == "No items found")
        #expect(ResultCountText.found(1) == "1 item found")
        #expect(ResultCountText.found(300_074) == "300,074 items found")
        #expect(ResultCountText.shown(50, of: 1_000_000) == "50 of 1,000,000 shown")
        #expect(SearchResults<Country>(records: [], totalCount: 1_200).summary == "1,200 items found")
        #expect(Product.entity.count(1_000_000) == "1,000,000 products")
    }
}
