import Foundation
import Testing
@testable import CatalogueKit

/// An import updates an existing record only in the columns its file has.
@Suite("Partial upserts")
struct PartialUpsertTests {
    @Test("Countries: code and name only keeps every other column and the aliases")
    func countriesNameOnly() throws {
        let catalogue = try seededCatalogue()
        let before = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "CI"))).first)
        let counts = try catalogue.importText(Country.self, "code,name\nCI,Ivory Coast Republic\n").counts
        #expect(counts == ImportCounts(updated: 1))
        let after = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "CI"))).first)
        #expect(after.name == "Ivory Coast Republic")
        var expected = before
        expected.name = "Ivory Coast Republic"
        #expect(after == expected)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "république de côte")).map(\.code) == ["CI"])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "ivory coast r")).map(\.code) == ["CI"])
    }

    @Test("Countries: an aliases column replaces the aliases; JSON null clears a column")
    func countriesAliasesAndNull() throws {
        let catalogue = try seededCatalogue()
        let json = #"[{"code": "CI", "name": "Côte d'Ivoire", "aliases": ["Elfenbeinküste"], "capital": null}]"#
        #expect(try catalogue.importText(Country.self, json, name: "c.json", format: .json).counts == ImportCounts(updated: 1))
        let after = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", "CI"))).first)
        #expect(after.aliases == ["Elfenbeinküste"])
        #expect(after.capital == nil)
        #expect(after.population != nil)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "elfenbein")).map(\.code) == ["CI"])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "ivory")).isEmpty)
        // The same file again: unchanged.
        #expect(try catalogue.importText(Country.self, json, name: "c.json", format: .json).counts == ImportCounts(unchanged: 1))
    }

    @Test("Products: a file without year keeps the year; NDJSON rows may have different keys")
    func productsSomeColumns() throws {
        let catalogue = try seededCatalogue()
        let ndjson = """
            {"name": "iPhone", "type": "device", "price": 1.5}
            {"name": "iPad", "type": "device", "year": 2011}
            {"name": "New thing", "type": "device"}

            """
        #expect(try catalogue.importText(Product.self, ndjson, name: "p.ndjson", format: .ndjson).counts
            == ImportCounts(added: 1, updated: 2))
        #expect(try catalogue.product(named: "iPhone")?.year == 2007)
        #expect(try catalogue.product(named: "iPhone")?.price == 1.5)
        #expect(try catalogue.product(named: "iPad")?.year == 2011)
        #expect(try catalogue.product(named: "iPad")?.price == 499)
        #expect(try catalogue.product(named: "New thing")?.year == nil)
    }
}
