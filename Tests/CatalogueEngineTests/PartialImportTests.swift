import CatalogueKit
import Foundation
import Testing

extension Catalogue {
    /// The country with this code, if any.
    func country(code: String) throws -> Country? {
        try read { db in try db.fetchFirst(FetchRequest<Country>(predicate: .equals("code", code))) }
    }

    /// Codes of the countries `search` finds.
    func countryCodes(_ search: FetchRequest<Country>) throws -> [String] {
        try records(search).map(\.code)
    }

    /// Names of the products `search` finds.
    func productNames(_ search: FetchRequest<Product>) throws -> [String] {
        try records(search).map(\.name)
    }
}

/// An import file that lacks some of the record's columns (a CSV without `year`, a JSON object
/// without a key) updates an existing record only in the columns it has, on every engine: the
/// same stored values, counts and search results (PostgreSQL's COPY path for products, its
/// row-by-row path for countries, SQLite's upserts).
@Suite("Partial imports")
struct PartialImportTests {
    static let lamps = "name,type,year,price\nLamp,home,2001,10\nChair,home,1999,5\n"

    @Test("A CSV without some columns updates products in the columns it has", arguments: EngineUnderTest.all)
    func productsCSV(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        _ = try catalogue.importText(Product.self, Self.lamps)
        let prices = "name,type,price\nLamp,home,12\nChair,home,5\n"
        // A dry run counts as the import does.
        #expect(try catalogue.importText(Product.self, prices, dryRun: true).counts == ImportCounts(updated: 1, unchanged: 1))
        #expect(try catalogue.product(named: "Lamp")?.price == 10)
        #expect(try catalogue.importText(Product.self, prices).counts == ImportCounts(updated: 1, unchanged: 1))
        let lamp = try #require(try catalogue.product(named: "Lamp"))
        #expect(lamp.year == 2001 && lamp.price == 12 && lamp.type == "home")
        let chair = try #require(try catalogue.product(named: "Chair"))
        #expect(chair.year == 1999 && chair.price == 5)
        // The same file again changes nothing.
        #expect(try catalogue.importText(Product.self, prices).counts == ImportCounts(unchanged: 2))
        // Only the keys: existing records are unchanged, whatever their other columns.
        #expect(try catalogue.importText(Product.self, "type,name\nHOME,Lamp\n").counts == ImportCounts(updated: 1))
        #expect(try catalogue.product(named: "Lamp").map { [$0.type, "\($0.year ?? 0)", "\($0.price ?? 0)"] } == ["HOME", "2001", "12.0"])
    }

    @Test("A CSV without some columns updates countries; aliases and capital stay searchable", arguments: EngineUnderTest.all)
    func countriesCSV(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let full = "code,name,capital,population,aliases\nXA,Alpha,Alphaville,10,\"Alpha Land; Alfa\"\n"
        #expect(try catalogue.importText(Country.self, full).counts == ImportCounts(added: 1))
        let before = try #require(try catalogue.country(code: "XA"))
        let renamed = "code,name,population\nXA,Aleph,11\nCO,Colombia,49648685\n"
        #expect(try catalogue.importText(Country.self, renamed).counts == ImportCounts(updated: 1, unchanged: 1))
        var expected = before
        expected.name = "Aleph"
        expected.population = 11
        #expect(try catalogue.country(code: "XA") == expected)
        #expect(try catalogue.country(code: "CO")?.capital == "Bogotá")
        // The name's words come from the new name and the kept aliases; the capital's are kept.
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "aleph", mode: .words)) == ["XA"])
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "alfa", mode: .words)) == ["XA"])
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "alpha la")) == ["XA"])
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "alphav", scope: .capital, mode: .words)) == ["XA"])
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "alphav", scope: .capital)) == ["XA"])
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "alpha", mode: .words)) == ["XA"])
        #expect(try catalogue.importText(Country.self, renamed).counts == ImportCounts(unchanged: 2))
    }

    @Test("JSON and NDJSON: a missing key keeps the stored value, null clears it", arguments: EngineUnderTest.all)
    func jsonMissingFields(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        _ = try catalogue.importText(Product.self, Self.lamps)
        let ndjson = """
            {"name": "Lamp", "type": "home", "price": 20}
            {"name": "Chair", "type": "home", "year": null}

            """
        #expect(try catalogue.importText(Product.self, ndjson, name: "p.ndjson", format: .ndjson).counts == ImportCounts(updated: 2))
        #expect(try catalogue.product(named: "Lamp").map { [$0.year, $0.price.map(Int.init)] } == [2001, 20])
        #expect(try catalogue.product(named: "Chair").map { [$0.year, $0.price.map(Int.init)] } == [nil, 5])

        let countries = try engine.makeCatalogue()
        let before = try #require(try countries.country(code: "CI"))
        let json = #"[{"code": "CI", "name": "Côte d'Ivoire", "capital": "Abidjan"}]"#
        #expect(try countries.importText(Country.self, json, name: "c.json", format: .json).counts == ImportCounts(updated: 1))
        var expected = before
        expected.capital = "Abidjan"
        #expect(try countries.country(code: "CI") == expected)
        #expect(try countries.countryCodes(CatalogueSearch.countries(matching: "ivory", mode: .words)) == ["CI"])
        #expect(try countries.countryCodes(CatalogueSearch.countries(matching: "abidj", scope: .capital, mode: .words)) == ["CI"])
        #expect(try countries.countryCodes(CatalogueSearch.countries(matching: "yamous", scope: .capital, mode: .words)).isEmpty)
    }

    @Test("A row without some columns for a new record: no value there", arguments: EngineUnderTest.all)
    func newRecords(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        #expect(try catalogue.importText(Product.self, "name,type,price\nNew lamp,home,3\n").counts == ImportCounts(added: 1))
        let lamp = try #require(try catalogue.product(named: "New lamp"))
        #expect(lamp.year == nil && lamp.price == 3)
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "new lamp 3", mode: .terms)) == ["New lamp"])
        #expect(try catalogue.importText(Country.self, "code,name\nXN,Newland\n").counts == ImportCounts(added: 1))
        let newland = try #require(try catalogue.country(code: "XN"))
        #expect(newland == Country(id: newland.id, code: "XN", name: "Newland"))
        #expect(try catalogue.countryCodes(CatalogueSearch.countries(matching: "newla", mode: .words)) == ["XN"])
    }

    @Test("One key twice in a file with different columns: each row builds on the one before", arguments: EngineUnderTest.all)
    func repeatedKeys(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        _ = try catalogue.importText(Product.self, Self.lamps)
        let ndjson = """
            {"name": "Lamp", "type": "home", "year": 2005}
            {"name": "Lamp", "type": "HOME", "price": 11}
            {"name": "Lamp", "type": "home", "price": 11}
            {"name": "Lamp", "type": "home", "year": 2005}
            {"name": "Stool", "type": "home", "year": 1990}
            {"name": "Stool", "type": "home", "price": 7}
            {"name": "Desk", "type": "home", "year": 1, "price": 2}
            {"name": "Desk", "type": "home", "price": 3}

            """
        // Lamp: updated (year), updated (type case, price), updated (type case back), unchanged;
        // Stool: added, updated; Desk: added, updated.
        let expected = ImportCounts(added: 2, updated: 5, unchanged: 1)
        #expect(try catalogue.importText(Product.self, ndjson, name: "p.ndjson", format: .ndjson, dryRun: true).counts == expected)
        #expect(try catalogue.importText(Product.self, ndjson, name: "p.ndjson", format: .ndjson).counts == expected)
        func values(_ name: String) throws -> [String] {
            try catalogue.product(named: name).map { [$0.type, "\($0.year.map(String.init) ?? "-")", "\($0.price.map { "\($0)" } ?? "-")"] } ?? []
        }
        #expect(try values("Lamp") == ["home", "2005", "11.0"])
        #expect(try values("Stool") == ["home", "1990", "7.0"])
        #expect(try values("Desk") == ["home", "1", "3.0"])
        #expect(try values("Chair") == ["home", "1999", "5.0"])

        let countries = try engine.makeCatalogue()
        let before = try #require(try countries.country(code: "CO"))
        let rows = """
            {"code": "CO", "name": "Colombia", "capital": "Santa Fe"}
            {"code": "CO", "name": "Colombia", "population": 50000000}
            {"code": "CO", "name": "Colombia", "capital": "Santa Fe", "aliases": ["Nueva Granada"]}
            {"code": "XQ", "name": "Qu", "aliases": "Q land"}
            {"code": "XQ", "name": "Quu"}

            """
        #expect(try countries.importText(Country.self, rows, name: "c.ndjson", format: .ndjson).counts
            == ImportCounts(added: 1, updated: 4))
        var colombia = before
        colombia.capital = "Santa Fe"
        colombia.population = 50_000_000
        colombia.aliases = ["Nueva Granada"]
        #expect(try countries.country(code: "CO") == colombia)
        let qu = try #require(try countries.country(code: "XQ"))
        #expect(qu.name == "Quu" && qu.aliases == ["Q land"])
        #expect(try countries.countryCodes(CatalogueSearch.countries(matching: "q land", mode: .words)) == ["XQ"])
        #expect(try countries.countryCodes(CatalogueSearch.countries(matching: "nueva gr", mode: .words)) == ["CO"])
    }

    @Test("Searches find the merged values: terms by a kept year, words by the name", arguments: EngineUnderTest.all)
    func searchesAfterwards(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        // iPod touch (2007) gets a new price; its year stays.
        let prices = "name,type,price\niPod touch,device,149\nBrand new gadget,device,1\n"
        #expect(try catalogue.importText(Product.self, prices).counts == ImportCounts(added: 1, updated: 1))
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "ipod 2007", mode: .terms)) == ["iPod touch"])
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "ipod 149", mode: .terms)) == ["iPod touch"])
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "gadget 1", mode: .terms)) == ["Brand new gadget"])
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "brand gad", mode: .words)) == ["Brand new gadget"])
        let years = "name,type,year\niPod touch,device,2008\n"
        #expect(try catalogue.importText(Product.self, years).counts == ImportCounts(updated: 1))
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "ipod 2007", mode: .terms)).isEmpty)
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "ipod 2008", mode: .terms)) == ["iPod touch"])
        #expect(try catalogue.productNames(CatalogueSearch.products(matching: "ipod 149", mode: .terms)) == ["iPod touch"])
    }
}
