import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// The built-in seed: what a new catalogue contains, and that it is loaded exactly once.
@Suite("Seed data")
struct SeedDataTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    func country(named name: String) throws -> Country? {
        try catalogue.records(FetchRequest<Country>(predicate: .equals("name", name))).first
    }

    @Test("A new catalogue has every country and territory")
    func countryCount() throws {
        let count = try catalogue.rowCount("country")
        #expect(count >= 245)
        #expect(count == (try SeedData.countries()).count)
    }

    @Test("Names keep their diacritics", arguments: [
        ("CI", "Côte d'Ivoire"), ("TR", "Türkiye"), ("CW", "Curaçao"), ("RE", "Réunion"),
        ("AX", "Åland Islands"), ("ST", "São Tomé and Príncipe"),
    ])
    func namesWithDiacritics(code: String, name: String) throws {
        let country = try #require(try country(named: name), "no country named \(name)")
        #expect(country.code == code)
        // Byte-exact (NFC), not only canonically equivalent.
        #expect(Array(country.name.utf8) == Array(name.precomposedStringWithCanonicalMapping.utf8))
    }

    @Test("Capitals keep their diacritics", arguments: [
        ("CO", "Bogotá"), ("CM", "Yaoundé"), ("BR", "Brasília"), ("PY", "Asunción"), ("ST", "São Tomé"),
    ])
    func capitalsWithDiacritics(code: String, capital: String) throws {
        let found = try catalogue.records(FetchRequest<Country>(predicate: .equals("code", code)))
        let country = try #require(found.first, "no country \(code)")
        #expect(country.capital == capital)
        #expect(Array((country.capital ?? "").utf8) == Array(capital.utf8))
    }

    @Test("No capital is an empty string: countries without one have NULL")
    func noEmptyCapital() throws {
        let empty = try catalogue.database.read { db in try db.scalar("SELECT count(*) FROM country WHERE capital = ''") as Int? }
        #expect(empty == 0)
        let withoutCapital = try catalogue.records(FetchRequest<Country>(predicate: .equals("capital", nil)))
        #expect(Set(withoutCapital.map(\.code)) == ["AQ", "BV", "HM", "UM"])
        let keys = try catalogue.database.read { db in
            try db.scalar("SELECT count(*) FROM country WHERE capital IS NULL AND capital_key IS NOT NULL") as Int?
        }
        #expect(keys == 0)
    }

    @Test("Every product has a name, a type, a year and a price")
    func productsComplete() throws {
        let incomplete = try catalogue.database.read { db in
            try db.scalar("""
                SELECT count(*) FROM product
                WHERE name IS NULL OR name = '' OR type IS NULL OR type = '' OR year IS NULL OR price IS NULL
                """) as Int?
        }
        #expect(incomplete == 0)
        #expect(try catalogue.rowCount("product") >= 49)
        #expect(try catalogue.rowCount("product") == (try SeedData.products()).count)
    }

    @Test("The nine products of Apple's sample, with their year and price", arguments: [
        ("iPhone", "device", 2007, 599.0), ("iPod", "device", 2001, 399.0), ("iPod touch", "device", 2007, 210.0),
        ("iPad", "device", 2010, 499.0), ("iPad mini", "device", 2012, 659.0), ("iMac", "desktop", 1997, 1299.0),
        ("Mac Pro", "desktop", 2006, 2499.0), ("MacBook Air", "portable", 2008, 1799.0),
        ("MacBook Pro", "portable", 2006, 1499.0),
    ])
    func appleSampleProducts(name: String, type: String, year: Int, price: Double) throws {
        let found = try catalogue.records(FetchRequest<Product>(predicate: .equals("name", name)))
        #expect(found.count == 1, "\(name): \(found)")
        let product = try #require(found.first)
        #expect(product.type == type)
        #expect(product.year == year)
        #expect(product.price == price)
    }

    @Test("Product types include Apple's scopes and the gift scopes")
    func productTypes() throws {
        let types = Set(try catalogue.productTypes())
        #expect(types.isSuperset(of: ["device", "desktop", "portable", "birthdays", "weddings", "funerals"]))
    }

    @Test("Aliases are stored in country_alias with folded keys", arguments: [
        ("Ivory Coast", "ivory coast", "CI"), ("Turkey", "turkey", "TR"), ("UK", "uk", "GB"), ("USA", "usa", "US"),
        ("República de Colombia", "republica de colombia", "CO"),
    ])
    func aliases(alias: String, key: String, code: String) throws {
        #expect(Folding.fold(alias) == key)
        let rows = try catalogue.database.read { db in
            try db.fetchAll("""
                SELECT country.code, country_alias.alias FROM country_alias
                JOIN country ON country.id = country_alias.country_id
                WHERE country_alias.alias_key = ?
                """, [key]) { (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1)) }
        }
        #expect(rows.count == 1, "\(rows)")
        #expect(rows.first?.0 == code)
        #expect(rows.first?.1 == alias)
        let country = try #require(try catalogue.records(FetchRequest<Country>(predicate: .equals("code", code))).first)
        #expect(country.aliases.contains(alias))
    }

    @Test("Every stored key is the fold of its column")
    func keysAreFolded() throws {
        let rows = try catalogue.database.read { db in
            try db.fetchAll("SELECT name, name_key, capital, capital_key FROM country") { row in
                (try row.decode(String.self, at: 0), try row.decode(String.self, at: 1),
                 try row.decode(String?.self, at: 2), try row.decode(String?.self, at: 3))
            }
        }
        #expect(rows.count >= 245)
        for (name, nameKey, capital, capitalKey) in rows {
            #expect(Bytes.equal(nameKey, Folding.fold(name)), "\(name)")
            #expect(capitalKey.map { Bytes.equal($0, Folding.fold(capital ?? "")) } ?? (capital == nil), "\(name)")
        }
    }
}

/// Seeding a database file: once, and never again.
@Suite("Seed data on disk")
struct SeedDataFileTests {
    @Test("Reopening a catalogue does not seed it twice")
    func reopeningDoesNotSeedTwice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("catalogue.sqlite")
        let first = try Catalogue(path: path)
        let counts = (try first.rowCount("country"), try first.rowCount("product"), try first.rowCount("country_alias"))
        #expect(counts.0 >= 245)
        let second = try Catalogue(path: path)
        #expect(try second.rowCount("country") == counts.0)
        #expect(try second.rowCount("product") == counts.1)
        #expect(try second.rowCount("country_alias") == counts.2)
    }

    @Test("Deleted seed rows do not come back when the catalogue is reopened")
    func deletedRowsStayDeleted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("catalogue.sqlite")
        do {
            let catalogue = try Catalogue(path: path)
            try catalogue.database.write { db in
                try db.execute("DELETE FROM country WHERE code IN ('CI', 'TR')")
                try db.deleteAll(Product.self)
            }
        }
        let reopened = try Catalogue(path: path)
        #expect(try reopened.rowCount("product") == 0)
        let gone = try reopened.records(FetchRequest<Country>(predicate: .in("code", ["CI", "TR"])))
        #expect(gone.isEmpty)
        #expect(try reopened.rowCount("country") == (try SeedData.countries()).count - 2)
    }

    @Test("seed: false leaves a new catalogue empty")
    func withoutSeed() throws {
        let catalogue = try emptyCatalogue()
        #expect(try catalogue.rowCount("country") == 0)
        #expect(try catalogue.rowCount("product") == 0)
    }
}
