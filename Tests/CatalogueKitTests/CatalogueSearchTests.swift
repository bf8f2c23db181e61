import CatalogueKit
import Foundation
import Testing

/// The repository's search semantics: the acceptance list of the search issue.
@Suite("Catalogue search")
struct CatalogueSearchTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    func countries(_ text: String, scope: CountryScope = .name, mode: MatchMode = .prefix) throws -> [String] {
        try catalogue.records(CatalogueSearch.countries(matching: text, scope: scope, mode: mode)).map(\.name)
    }

    func products(_ text: String, scope: ProductScope = .all, mode: MatchMode = .prefix) throws -> [String] {
        try catalogue.records(CatalogueSearch.products(matching: text, scope: scope, mode: mode)).map(\.name)
    }

    @Test("\"cote\" finds Côte d'Ivoire")
    func cote() throws {
        #expect(try countries("cote") == ["Côte d'Ivoire"])
        #expect(try countries("CÔTE") == ["Côte d'Ivoire"])
    }

    @Test("\"turkey\" finds Türkiye through its alias, listed once under its name")
    func turkey() throws {
        #expect(try countries("turkey") == ["Türkiye"])
        #expect(try countries("tu").filter { $0 == "Türkiye" }.count == 1)
    }

    @Test("\"ivory\" in the name scope finds Côte d'Ivoire once")
    func ivory() throws {
        #expect(try countries("ivory") == ["Côte d'Ivoire"])
        #expect(try countries("ivory", scope: .capital).isEmpty)
    }

    @Test("Capital scope: \"bogota\" → Colombia, \"SÃO\" → São Tomé and Príncipe")
    func capitals() throws {
        #expect(try countries("bogota", scope: .capital) == ["Colombia"])
        #expect(try countries("SÃO", scope: .capital) == ["São Tomé and Príncipe"])
        #expect(try countries("bogota").isEmpty)
    }

    @Test("Devices: \"ipad\" → iPad, iPad mini")
    func iPad() throws {
        #expect(try products("ipad", scope: .type("device")) == ["iPad", "iPad mini"])
        #expect(try products("ipad", scope: .type("DEVICE")) == ["iPad", "iPad mini"])
        #expect(try products("ipad", scope: .type("desktop")).isEmpty)
        #expect(try products("ipad") == ["iPad", "iPad mini"])
    }

    @Test("Terms: \"ipod 2007\" → iPod touch; \"599\" → iPhone")
    func terms() throws {
        #expect(try products("ipod 2007", mode: .terms) == ["iPod touch"])
        #expect(try products("599", mode: .terms) == ["iPhone"])
        #expect(try products("2007 ipod", scope: .type("device"), mode: .terms) == ["iPod touch"])
        #expect(try products("touch 2008", mode: .terms).isEmpty)
        #expect(try products("34.99", mode: .terms) == ["Chocolate layer cake"])
        #expect(try countries("colombia bogota", mode: .terms) == ["Colombia"])
    }

    @Test("Words: \"united ki\" → United Kingdom; \"sao tome\" → São Tomé and Príncipe")
    func words() throws {
        #expect(try countries("united ki", mode: .words) == ["United Kingdom"])
        #expect(try countries("sao tome", mode: .words) == ["São Tomé and Príncipe"])
        #expect(try countries("sao tome", scope: .capital, mode: .words) == ["São Tomé and Príncipe"])
        #expect(try countries("ivory", mode: .words) == ["Côte d'Ivoire"])
        #expect(try countries("kingdom united", mode: .words) == ["United Kingdom"])
        #expect(try products("creme", mode: .words) == ["Crème brûlée torch set", "Crème rose sympathy wreath"])
    }

    @Test("Empty or blank text returns the whole scope (the capital scope: countries with a capital)", arguments: ["", "  ", "\t\n "])
    func emptyText(text: String) throws {
        let all = try catalogue.rowCount("country")
        let withCapital = try catalogue.database.read { db in try db.scalar("SELECT count(*) FROM country WHERE capital IS NOT NULL") as Int? }
        #expect(withCapital.map { $0 < all } == true)
        for mode in MatchMode.allCases {
            for scope in CountryScope.allCases {
                let expected = scope == .capital ? withCapital : all
                #expect(try countries(text, scope: scope, mode: mode).count == expected, "\(mode) \(scope)")
            }
            let devices = try catalogue.database.read { db in try db.scalar("SELECT count(*) FROM product WHERE type = 'device'") as Int? }
            #expect(try products(text, scope: .type("device"), mode: mode).count == devices, "\(mode)")
            #expect(try products(text, mode: mode).count == (try catalogue.rowCount("product")), "\(mode)")
        }
    }

    @Test("The capital scope is ordered by folded capital, then capital; the name scopes by name")
    func capitalOrder() throws {
        for mode in [MatchMode.prefix, .contains] {
            let capitals = try catalogue.records(CatalogueSearch.countries(matching: "co", scope: .capital, mode: mode))
                .compactMap(\.capital)
            #expect(capitals.count > 1)
            #expect(capitals.map { Folding.fold($0) } == capitals.map { Folding.fold($0) }.sorted(), "\(mode)")
        }
        let prefix = try catalogue.records(CatalogueSearch.countries(matching: "co", scope: .capital)).compactMap(\.capital)
        #expect(prefix == ["Cockburn Town", "Colombo", "Conakry", "Copenhagen"])
        let all = try catalogue.records(CatalogueSearch.countries(matching: "", scope: .capital)).compactMap(\.capital)
        #expect(all.first == "Abu Dhabi")
        let names = try countries("co", scope: .any)
        #expect(names.map { Folding.fold($0) } == names.map { Folding.fold($0) }.sorted())
        let request = CatalogueSearch.countries(matching: "co", scope: .name)
        #expect(request.sortDescriptors == FetchSortDescriptor.byName)
    }

    @Test("The any scope is the union of name and capital, each country once")
    func anyScope() throws {
        for text in ["san", "bog", "col", "sa", "mo"] {
            let any = try countries(text, scope: .any)
            let union = Set(try countries(text, scope: .name)).union(try countries(text, scope: .capital))
            #expect(Set(any) == union, "\(text)")
            #expect(any.count == Set(any).count, "\(text): duplicates")
        }
        #expect(try countries("bog", scope: .any) == ["Colombia"])
        #expect(try countries("san", scope: .any).contains("San Marino"))
        #expect(try countries("san", scope: .any).contains("El Salvador"))
    }

    @Test("Contains mode finds the text anywhere in the name, an alias or the capital")
    func containsMode() throws {
        let all = try catalogue.allCountries()
        for (text, scope) in [("land", CountryScope.name), ("ÅND", .name), ("coast", .name), ("bog", .capital), ("ton", .any)] {
            let key = Folding.fold(text)
            let expected = all.filter { country in
                let names = scope == .capital ? [] : [country.name] + country.aliases
                let capitals = scope == .name ? [] : [country.capital].compactMap { $0 }
                return (names + capitals).contains { Bytes.contains(Folding.fold($0), key) }
            }
            #expect(try countries(text, scope: scope, mode: .contains) == displayOrdered(expected, name: \.name).map(\.name), "\(text)")
        }
        #expect(try countries("ivoire", mode: .contains) == ["Côte d'Ivoire"])
        #expect(try countries("ivoire").isEmpty)
        #expect(try products("mini", scope: .type("device"), mode: .contains) == ["iPad mini"])
    }

    @Test("Order: folded name, then name, then id")
    func order() throws {
        let all = try catalogue.records(CatalogueSearch.countries(matching: ""))
        #expect(all.map(\.id) == displayOrdered(all, name: \.name).map(\.id))
        let products = try catalogue.records(CatalogueSearch.products(matching: "", mode: .contains))
        #expect(products.map(\.id) == displayOrdered(products, name: \.name).map(\.id))
        let names = all.map(\.name)
        #expect(names.firstIndex(of: "Åland Islands")! < names.firstIndex(of: "Albania")!)
    }

    @Test("Words mode orders by relevance first")
    func wordsRanked() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            try db.insert(Product(name: "Aardvark zeta with a long tail of many other words", type: "t"))
            try db.insert(Product(name: "Zeta", type: "t"))
            try db.insert(Product(name: "Beta", type: "t"))
        }
        let request = CatalogueSearch.products(matching: "zeta", mode: .words)
        #expect(request.sortDescriptors.first == .relevance)
        #expect(try request.selectSQL().sql.contains("ORDER BY product_fts.rank, product.name_key, product.name, product.id"))
        #expect(try catalogue.records(request).map(\.name) == ["Zeta", "Aardvark zeta with a long tail of many other words"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "zeta", mode: .contains)).map(\.name)
            == ["Aardvark zeta with a long tail of many other words", "Zeta"])
    }

    @Test("Summary texts")
    func summaries() throws {
        #expect(try catalogue.search(CatalogueSearch.countries(matching: "zzqx")).summary == "No items found")
        #expect(try catalogue.search(CatalogueSearch.countries(matching: "bogota", scope: .capital)).summary == "1 item found")
        #expect(try catalogue.search(CatalogueSearch.products(matching: "ipad")).summary == "2 items found")
        #expect(SearchResults<Country>(records: [], totalCount: 0).summary == "No items found")
        #expect(SearchResults<Country>(records: [], totalCount: 1).summary == "1 item found")
        #expect(SearchResults<Country>(records: [], totalCount: 250).summary == "250 items found")
    }

    @Test("A limited page reports the total count of every match")
    func pagedTotals() throws {
        let request = CatalogueSearch.countries(matching: "s")
        let all = try catalogue.records(request)
        #expect(all.count > 10)
        let page = try catalogue.search(request, limit: 3)
        #expect(page.records.map(\.id) == all.prefix(3).map(\.id))
        #expect(page.totalCount == all.count)
        #expect(page.summary == "\(all.count) items found")
        let second = try catalogue.search(request, limit: 3, offset: 3)
        #expect(second.records.map(\.id) == all[3..<6].map(\.id))
        #expect(second.totalCount == all.count)
        let last = try catalogue.search(request, limit: 5, offset: all.count - 2)
        #expect(last.records.count == 2)
        #expect(last.totalCount == all.count)
        let unlimited = try catalogue.search(request, limit: nil)
        #expect(unlimited.records.count == all.count && unlimited.totalCount == all.count)
    }

    @Test("Text is trimmed; terms split on whitespace; scopes parse")
    func parsing() {
        #expect(CatalogueSearch.normalizedText("  bog \n") == "bog")
        #expect(CatalogueSearch.terms(in: " ipod\t2007  x ") == ["ipod", "2007", "x"])
        #expect(ProductScope(parsing: "ALL") == .all)
        #expect(ProductScope(parsing: "Device") == .type("Device"))
        #expect(MatchMode(rawValue: "words") == .words)
        #expect(CatalogueSearch.countries(matching: " bo ") == CatalogueSearch.countries(matching: "bo"))
    }
}
