import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// The repository's search semantics (the acceptance list of the search issue), on every engine.
@Suite("Catalogue search")
struct CatalogueSearchTests {
    struct Search {
        let catalogue: Catalogue

        func countries(_ text: String, scope: CountryScope = .name, mode: MatchMode = .prefix) throws -> [String] {
            try catalogue.records(CatalogueSearch.countries(matching: text, scope: scope, mode: mode)).map(\.name)
        }

        func products(_ text: String, scope: ProductScope = .all, mode: MatchMode = .prefix) throws -> [String] {
            try catalogue.records(CatalogueSearch.products(matching: text, scope: scope, mode: mode)).map(\.name)
        }
    }

    func search(_ engine: EngineUnderTest) throws -> Search {
        Search(catalogue: try engine.sharedSeededCatalogue())
    }

    @Test("\"cote\" finds Côte d'Ivoire", arguments: EngineUnderTest.all)
    func cote(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.countries("cote") == ["Côte d'Ivoire"])
        #expect(try search.countries("CÔTE") == ["Côte d'Ivoire"])
    }

    @Test("Typographic apostrophes find the typewriter ones and back: cote d’ finds Côte d'Ivoire, o'zbek finds O‘zbekiston", arguments: EngineUnderTest.all)
    func typographicApostrophes(engine: EngineUnderTest) throws {
        let search = try search(engine)
        // A phone's keyboard types ’ (U+2019); the catalogue has '.
        #expect(try search.countries("cote d’") == ["Côte d'Ivoire"])
        #expect(try search.countries("d’ivoire", mode: .contains) == ["Côte d'Ivoire"])
        // The seed's transliterations have ‘ (U+2018); a user types '.
        #expect(try search.countries("o'zbekiston") == ["Uzbekistan"])
        #expect(try search.countries("al-'iraq", mode: .contains) == ["Iraq"])
        #expect(try search.countries("Wai‛tu", mode: .prefix) == ["Dominica"])
    }

    @Test("Typographic quotation marks and apostrophes in products, their types and highlights", arguments: EngineUnderTest.all)
    func typographicQuotes(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            _ = try db.upsert(Product(name: "iMac 27\" display", type: "Kids’ desks"))
            _ = try db.upsert(Product(name: "Ma‘amoul „Deluxe“ tin", type: "Food"))
        }
        let search = Search(catalogue: catalogue)
        #expect(try search.products("imac 27”") == ["iMac 27\" display"])
        #expect(try search.products("imac 27\"") == ["iMac 27\" display"])
        #expect(try search.products("ma'amoul \"deluxe\"") == ["Ma‘amoul „Deluxe“ tin"])
        #expect(try search.products("\"deluxe\"", mode: .contains) == ["Ma‘amoul „Deluxe“ tin"])
        #expect(try search.products("", scope: .type("kids' desks")) == ["iMac 27\" display"])
        #expect(try catalogue.fetchCount(FetchRequest<Product>(predicate: .equals("name", "MA'AMOUL \"DELUXE\" TIN", options: .caseAndDiacriticInsensitive))) == 1)
        // Each mark is one character folded to one, so a highlight marks the original's marks.
        #expect(SearchHighlighter.segments(of: "Ma‘amoul „Deluxe“ tin", matching: "ma'amoul \"del", mode: .prefix)
            .filter(\.isMatch).map(\.text) == ["Ma‘amoul „Del"])
    }

    @Test("\"turkey\" finds Türkiye through its alias, listed once under its name", arguments: EngineUnderTest.all)
    func turkey(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.countries("turkey") == ["Türkiye"])
        #expect(try search.countries("tu").filter { $0 == "Türkiye" }.count == 1)
    }

    @Test("\"ivory\" in the name scope finds Côte d'Ivoire once", arguments: EngineUnderTest.all)
    func ivory(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.countries("ivory") == ["Côte d'Ivoire"])
        #expect(try search.countries("ivory", scope: .capital).isEmpty)
    }

    @Test("Capital scope: \"bog\" → Colombia, \"SÃO\" → São Tomé and Príncipe", arguments: EngineUnderTest.all)
    func capitals(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.countries("bog", scope: .capital) == ["Colombia"])
        #expect(try search.countries("bogota", scope: .capital) == ["Colombia"])
        #expect(try search.countries("SÃO", scope: .capital) == ["São Tomé and Príncipe"])
        #expect(try search.countries("bogota").isEmpty)
    }

    @Test("Devices: \"ipad\" → iPad, iPad mini", arguments: EngineUnderTest.all)
    func iPad(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.products("ipad", scope: .type("device")) == ["iPad", "iPad mini"])
        #expect(try search.products("ipad", scope: .type("DEVICE")) == ["iPad", "iPad mini"])
        #expect(try search.products("ipad", scope: .type("desktop")).isEmpty)
        #expect(try search.products("ipad") == ["iPad", "iPad mini"])
    }

    @Test("Terms: \"ipod 2007\" → iPod touch; \"599\" → iPhone", arguments: EngineUnderTest.all)
    func terms(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.products("ipod 2007", mode: .terms) == ["iPod touch"])
        #expect(try search.products("599", mode: .terms) == ["iPhone"])
        #expect(try search.products("2007 ipod", scope: .type("device"), mode: .terms) == ["iPod touch"])
        #expect(try search.products("touch 2008", mode: .terms).isEmpty)
        #expect(try search.products("34.99", mode: .terms) == ["Chocolate layer cake"])
        #expect(try search.countries("colombia bogota", mode: .terms) == ["Colombia"])
    }

    @Test("Terms past the 64 PostgreSQL plans one by one still all count: a term at 70 that matches nothing finds nothing",
          arguments: EngineUnderTest.all)
    func manyTerms(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let words = (0..<100).map { "part\($0)x" }
        try catalogue.write { db in
            try db.insert(Product(name: words.joined(separator: " "), type: "kits"))
            try db.insert(Product(name: words.dropLast(30).joined(separator: " "), type: "kits"))
        }
        func names(_ terms: [String]) throws -> [String] {
            try catalogue.records(CatalogueSearch.products(matching: terms.joined(separator: " "), mode: .terms)).map(\.name)
        }
        #expect(try names(words) == [words.joined(separator: " ")])
        #expect(try catalogue.fetchCount(CatalogueSearch.products(matching: words.joined(separator: " "), mode: .terms)) == 1)
        #expect(try names(Array(words.prefix(70))).count == 2)
        var missing = words
        missing[70] = "nowhere"
        #expect(try names(missing).isEmpty)
        #expect(try catalogue.fetchCount(CatalogueSearch.products(matching: missing.joined(separator: " "), mode: .terms)) == 0)
    }

    @Test("Words: \"united ki\" → United Kingdom; \"sao tome\" → São Tomé and Príncipe", arguments: EngineUnderTest.all)
    func words(engine: EngineUnderTest) throws {
        let search = try search(engine)
        #expect(try search.countries("united ki", mode: .words) == ["United Kingdom"])
        #expect(try search.countries("sao tome", mode: .words) == ["São Tomé and Príncipe"])
        #expect(try search.countries("sao tome", scope: .capital, mode: .words) == ["São Tomé and Príncipe"])
        #expect(try search.countries("ivory", mode: .words) == ["Côte d'Ivoire"])
        #expect(try search.countries("kingdom united", mode: .words) == ["United Kingdom"])
        #expect(try search.countries("bogo", scope: .any, mode: .words) == ["Colombia"])
        #expect(try search.products("creme", mode: .words) == ["Crème brûlée torch set", "Crème rose sympathy wreath"])
    }

    @Test("Empty or blank text returns the whole scope (the capital scope: countries with a capital)",
          arguments: EngineUnderTest.all, ["", "  ", "\t\n "])
    func emptyText(engine: EngineUnderTest, text: String) throws {
        let search = try search(engine)
        let catalogue = search.catalogue
        let all = try catalogue.count(Country.self)
        let withCapital = try catalogue.count(Country.self, where: .notEquals("capital", nil))
        let devices = try catalogue.count(Product.self, where: .equals("type", "device"))
        #expect(withCapital < all)
        for mode in MatchMode.allCases {
            for scope in CountryScope.allCases {
                let expected = scope == .capital ? withCapital : all
                #expect(try search.countries(text, scope: scope, mode: mode).count == expected, "\(mode) \(scope)")
            }
            #expect(try search.products(text, scope: .type("device"), mode: mode).count == devices, "\(mode)")
            #expect(try search.products(text, mode: mode).count == (try catalogue.count(Product.self)), "\(mode)")
        }
    }

    @Test("The capital scope is ordered by folded capital, then capital; the name scopes by name", arguments: EngineUnderTest.all)
    func capitalOrder(engine: EngineUnderTest) throws {
        let search = try search(engine)
        let catalogue = search.catalogue
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
        let names = try search.countries("co", scope: .any)
        #expect(names.map { Folding.fold($0) } == names.map { Folding.fold($0) }.sorted())
    }

    @Test("The any scope is the union of name and capital, each country once", arguments: EngineUnderTest.all)
    func anyScope(engine: EngineUnderTest) throws {
        let search = try search(engine)
        for text in ["san", "bog", "col", "sa", "mo"] {
            let any = try search.countries(text, scope: .any)
            let union = Set(try search.countries(text, scope: .name)).union(try search.countries(text, scope: .capital))
            #expect(Set(any) == union, "\(text)")
            #expect(any.count == Set(any).count, "\(text): duplicates")
        }
        #expect(try search.countries("bog", scope: .any) == ["Colombia"])
        #expect(try search.countries("san", scope: .any).contains("San Marino"))
        #expect(try search.countries("san", scope: .any).contains("El Salvador"))
    }

    @Test("Contains mode finds the text anywhere in the name, an alias or the capital", arguments: EngineUnderTest.all)
    func containsMode(engine: EngineUnderTest) throws {
        let search = try search(engine)
        let all = try search.catalogue.allCountries()
        for (text, scope) in [("land", CountryScope.name), ("ÅND", .name), ("coast", .name), ("bog", .capital), ("ton", .any)] {
            let key = Folding.fold(text)
            let expected = all.filter { country in
                let names = scope == .capital ? [] : [country.name] + country.aliases
                let capitals = scope == .name ? [] : [country.capital].compactMap { $0 }
                return (names + capitals).contains { Bytes.contains(Folding.fold($0), key) }
            }
            #expect(try search.countries(text, scope: scope, mode: .contains) == displayOrdered(expected, name: \.name).map(\.name), "\(text)")
        }
        #expect(try search.countries("ivoire", mode: .contains) == ["Côte d'Ivoire"])
        #expect(try search.countries("ivoire").isEmpty)
        #expect(try search.products("mini", scope: .type("device"), mode: .contains) == ["iPad mini"])
    }

    @Test("Rows that tie on every sort descriptor come in id order, whatever the engine reads first", arguments: EngineUnderTest.all)
    func tiesInIDOrder(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let ids = try catalogue.write { db in
            try (0..<40).map { try db.insert(Product(name: "Tie \($0) kettle", type: "t", year: 2001)).id! }
        }
        // Rewritten rows move on PostgreSQL's heap: a sort that is not stable gives them first.
        try catalogue.write { db in
            for (index, id) in ids.prefix(20).enumerated() {
                try db.update(Product(id: id, name: "Tie \(index) kettle", type: "t", year: 2001, price: 1))
            }
        }
        for descriptors in [[FetchSortDescriptor("year")], [FetchSortDescriptor("type"), FetchSortDescriptor("year", ascending: false)]] {
            let request = FetchRequest<Product>(sortDescriptors: descriptors, fetchLimit: 5)
            #expect(try catalogue.records(request).map(\.id) == Array(ids.prefix(5)), "\(descriptors)")
        }
        // Every name holds "kettle" once, so every score ties.
        let relevance = FetchRequest<Product>(
            predicate: .fullText(try #require(FullTextPattern(matchingAllPrefixesIn: "kettle"))), sortDescriptors: [.relevance], fetchLimit: 5)
        #expect(try catalogue.records(relevance).map(\.id) == Array(ids.prefix(5)))
    }

    @Test("Order: folded name, then name, then id", arguments: EngineUnderTest.all)
    func order(engine: EngineUnderTest) throws {
        let catalogue = try search(engine).catalogue
        let all = try catalogue.records(CatalogueSearch.countries(matching: ""))
        #expect(all.map(\.id) == displayOrdered(all, name: \.name).map(\.id))
        let products = try catalogue.records(CatalogueSearch.products(matching: "", mode: .contains))
        #expect(products.map(\.id) == displayOrdered(products, name: \.name).map(\.id))
        let names = all.map(\.name)
        #expect(names.firstIndex(of: "Åland Islands")! < names.firstIndex(of: "Albania")!)
    }

    @Test("Words mode orders by relevance first, then by name", arguments: EngineUnderTest.all)
    func wordsRanked(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        try catalogue.write { db in
            try db.insert(Product(name: "Aardvark zeta with a long tail of many other words", type: "t"))
            try db.insert(Product(name: "Zeta", type: "t"))
            try db.insert(Product(name: "Beta", type: "t"))
        }
        let request = CatalogueSearch.products(matching: "zeta", mode: .words)
        #expect(request.sortDescriptors.first == .relevance)
        #expect(try catalogue.records(request).map(\.name) == ["Zeta", "Aardvark zeta with a long tail of many other words"])
        #expect(try catalogue.records(CatalogueSearch.products(matching: "zeta", mode: .contains)).map(\.name)
            == ["Aardvark zeta with a long tail of many other words", "Zeta"])
    }

    @Test("Summary texts", arguments: EngineUnderTest.all)
    func summaries(engine: EngineUnderTest) throws {
        let catalogue = try search(engine).catalogue
        #expect(try catalogue.search(CatalogueSearch.countries(matching: "zzqx")).summary == "No items found")
        #expect(try catalogue.search(CatalogueSearch.countries(matching: "bogota", scope: .capital)).summary == "1 item found")
        #expect(try catalogue.search(CatalogueSearch.products(matching: "ipad")).summary == "2 items found")
    }

    @Test("A limited page reports the total count of every match", arguments: EngineUnderTest.all)
    func pagedTotals(engine: EngineUnderTest) throws {
        let catalogue = try search(engine).catalogue
        let request = CatalogueSearch.countries(matching: "s")
        let all = try catalogue.records(request)
        #expect(all.count > 10)
        let page = try catalogue.search(request, limit: 3)
        #expect(page.records.map(\.id) == all.prefix(3).map(\.id))
        #expect(page.totalCount == all.count)
        let second = try catalogue.search(request, limit: 3, offset: 3)
        #expect(second.records.map(\.id) == all[3..<6].map(\.id))
        #expect(second.totalCount == all.count)
        let last = try catalogue.search(request, limit: 5, offset: all.count - 2)
        #expect(last.records.count == 2)
        #expect(last.totalCount == all.count)
        let unlimited = try catalogue.search(request, limit: nil)
        #expect(unlimited.records.count == all.count && unlimited.totalCount == all.count)
    }

    @Test("Both engines return the same records for the same searches", arguments: EngineUnderTest.all)
    func sameAsSQLite(engine: EngineUnderTest) throws {
        let catalogue = try search(engine).catalogue
        let reference = try EngineUnderTest.sqlite.sharedSeededCatalogue()
        for text in ["a", "sa", "co", "is", "ré", "united", "ki", "an", "ST", "Ø", "nord"] {
            for mode in MatchMode.allCases {
                for scope in CountryScope.allCases {
                    let request = CatalogueSearch.countries(matching: text, scope: scope, mode: mode)
                    let (found, expected) = (try catalogue.records(request).map(\.code), try reference.records(request).map(\.code))
                    // Relevance is each engine's own (bm25, ts_rank): the same records, maybe in another order.
                    if mode == .words {
                        #expect(Set(found) == Set(expected), "\(text) \(mode) \(scope)")
                    } else {
                        #expect(found == expected, "\(text) \(mode) \(scope)")
                    }
                }
                let products = CatalogueSearch.products(matching: text, mode: mode)
                let (found, expected) = (try catalogue.records(products).map(\.name), try reference.records(products).map(\.name))
                if mode == .words {
                    #expect(Set(found) == Set(expected), "\(text) \(mode)")
                } else {
                    #expect(found == expected, "\(text) \(mode)")
                }
            }
        }
    }
}
