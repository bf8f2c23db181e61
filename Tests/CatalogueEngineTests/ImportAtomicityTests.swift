import CatalogueKit
import Foundation
import Testing

/// Every record of a catalogue, engine-neutrally, for "nothing changed" checks.
struct CatalogueSnapshot: Equatable {
    let products: [Product]
    let countries: [Country]

    init(_ catalogue: Catalogue) throws {
        (products, countries) = try catalogue.read { db in
            (try db.fetch(FetchRequest<Product>(sortDescriptors: [FetchSortDescriptor("id")])),
             try db.fetch(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("id")])))
        }
    }
}

extension Catalogue {
    /// Imports `text` as a file named `name`, collecting skipped rows.
    func importText<R: ImportableRecord>(
        _ type: R.Type, _ text: String, name: String = "test.csv", format: RecordFileFormat = .csv,
        onError: ImportErrorPolicy = .abort, dryRun: Bool = false
    ) throws -> (counts: ImportCounts, skipped: [String]) {
        var skipped: [String] = []
        let counts = try importRecords(
            type, from: ImportInput(text: text, name: name),
            options: ImportOptions(format: format, onError: onError, dryRun: dryRun),
            skipped: { skipped.append($0.description) })
        return (counts, skipped)
    }

    /// The product with this name, if any.
    func product(named name: String) throws -> Product? {
        try read { db in try db.fetchFirst(FetchRequest<Product>(predicate: .equals("name", name))) }
    }

    /// Names of the products with a word starting with `prefix`.
    func productNames(withWord prefix: String) throws -> [String] {
        try records(CatalogueSearch.products(matching: prefix, mode: .words)).map(\.name)
    }
}

/// The text of the error `body` throws, or nil when nothing was thrown.
func issueText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

/// Imports on every engine: upserts by natural key in one transaction, all or nothing, the
/// abort and skip policies with `FILE:LINE: column: reason`, dry runs.
@Suite("Import atomicity")
struct ImportAtomicityTests {
    static let goodCSV = #"""
        type,name,year,price,id
        device,Brio phone,2020,99.5,123
        kitchen,"Crème kettle, ""deluxe""",1999,,
        garden,"Multi
        line	tab \ back",,0,

        """#

    @Test("A CSV with columns in any order lands with keys and full-text entries", arguments: EngineUnderTest.all)
    func importsCSV(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let before = try catalogue.count(Product.self)
        let (counts, skipped) = try catalogue.importText(Product.self, Self.goodCSV)
        #expect(counts == ImportCounts(added: 3))
        #expect(skipped.isEmpty)
        #expect(try catalogue.count(Product.self) == before + 3)
        let kettle = try #require(try catalogue.product(named: "Crème kettle, \"deluxe\""))
        #expect(kettle.type == "kitchen" && kettle.year == 1999 && kettle.price == nil)
        let multi = try #require(try catalogue.product(named: "Multi\nline\ttab \\ back"))
        #expect(multi.year == nil && multi.price == 0)
        // The `id` column is ignored: ids come from this database.
        #expect(try catalogue.product(named: "Brio phone")?.id != 123)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "creme k")).map(\.name) == ["Crème kettle, \"deluxe\""])
        #expect(try catalogue.productNames(withWord: "kettl") == ["Crème kettle, \"deluxe\""])
        #expect(try catalogue.productNames(withWord: "back") == ["Multi\nline\ttab \\ back"])
    }

    @Test("Importing again: unchanged; changed values and type case: updated", arguments: EngineUnderTest.all)
    func reimport(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        _ = try catalogue.importText(Product.self, Self.goodCSV)
        let snapshot = try CatalogueSnapshot(catalogue)
        #expect(try catalogue.importText(Product.self, Self.goodCSV).counts == ImportCounts(unchanged: 3))
        #expect(try CatalogueSnapshot(catalogue) == snapshot)
        let changed = "name,type,price\nBrio phone,DEVICE,99.5\n\"Multi\nline\ttab \\ back\",garden,1\nNew one,device,\n"
        #expect(try catalogue.importText(Product.self, changed).counts == ImportCounts(added: 1, updated: 2))
        #expect(try catalogue.product(named: "Brio phone")?.type == "DEVICE")
        // A column the file does not have is left as it was (issue 13).
        #expect(try catalogue.product(named: "Brio phone")?.year == 2020)
        #expect(try catalogue.product(named: "Multi\nline\ttab \\ back")?.price == 1)
    }

    @Test("A natural key repeated in one file: counted row by row, the last row wins", arguments: EngineUnderTest.all)
    func repeatedKeys(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let text = "name,type,year\nLamp,home,2001\nLamp,HOME,2002\nLamp,home,2002\nLamp,home,2002\nChair,home,\n"
        // Lamp: added, updated (type case and year), updated (type case back), unchanged; Chair: added.
        #expect(try catalogue.importText(Product.self, text).counts == ImportCounts(added: 2, updated: 2, unchanged: 1))
        let lamp = try #require(try catalogue.product(named: "Lamp"))
        #expect(lamp.type == "home" && lamp.year == 2002)
        #expect(try catalogue.count(Product.self) == 2)
        let again = "name,type,year\nLamp,home,2003\nLamp,home,2002\n"
        #expect(try catalogue.importText(Product.self, again).counts == ImportCounts(updated: 2))
        #expect(try catalogue.product(named: "Lamp")?.year == 2002)
    }

    @Test("New records are numbered in the order their keys first appear in the file, not in name order",
          arguments: EngineUnderTest.all)
    func idsInFileOrder(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        _ = try catalogue.importText(Product.self, "name,type\nMiddle,home\n")
        // Zebra and Apple repeat later; the stored Middle is updated, not numbered again.
        let text = "name,type,year\nZebra,home,2001\nMango,home,\nApple,home,\nMiddle,home,2020\nZebra,home,2002\nBanana,home,\nApple,home,2003\n"
        #expect(try catalogue.importText(Product.self, text).counts == ImportCounts(added: 4, updated: 3))
        let byID = try catalogue.read { db in try db.fetch(FetchRequest<Product>(sortDescriptors: [FetchSortDescriptor("id")])) }
        #expect(byID.map(\.name) == ["Middle", "Zebra", "Mango", "Apple", "Banana"])
        #expect(byID.map(\.year) == [2020, 2002, nil, 2003, nil])
    }

    static let badCSV = #"""
        name,type,year,price
        Good one,device,2001,1
        "Two
        lines",device,2002,2
        Bad year,device,20x7,3
        Negative,device,2003,-5
        ,device,2004,4
        Short,device
        Last good,device,2005,5

        """#

    @Test("abort: the first bad row, FILE:LINE: column: reason, and nothing written", arguments: EngineUnderTest.all)
    func abortPolicy(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let before = try CatalogueSnapshot(catalogue)
        let message = issueText { _ = try catalogue.importText(Product.self, Self.badCSV, name: "bad.csv") }
        #expect(message == "bad.csv:5: year: not a whole number: \"20x7\"")
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("abort after thousands of good rows: nothing written", arguments: EngineUnderTest.all)
    func abortLate(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let before = try CatalogueSnapshot(catalogue)
        let text = "name,type,year\n" + (0..<30_000).map { "Row \($0),bulk,2000\n" }.joined() + "Bad,bulk,year\n"
        #expect(issueText { _ = try catalogue.importText(Product.self, text, name: "late.csv") }
            == "late.csv:30002: year: not a whole number: \"year\"")
        #expect(try CatalogueSnapshot(catalogue) == before)
        // The connection is usable afterwards, and the same file without its bad row lands whole.
        let good = "name,type,year\n" + (0..<30_000).map { "Row \($0),bulk,2000\n" }.joined()
        #expect(try catalogue.importText(Product.self, good).counts == ImportCounts(added: 30_000))
        #expect(try catalogue.count(Product.self, where: .equals("type", "bulk")) == 30_000)
    }

    @Test("skip: every bad row reported with its line, the good ones land", arguments: EngineUnderTest.all)
    func skipPolicy(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let (counts, skipped) = try catalogue.importText(Product.self, Self.badCSV, name: "bad.csv", onError: .skip)
        #expect(counts == ImportCounts(added: 3, skipped: 4))
        #expect(skipped == [
            "bad.csv:5: year: not a whole number: \"20x7\"",
            "bad.csv:6: price: must not be negative: -5",
            "bad.csv:7: name: must not be empty",
            "bad.csv:8: expected 4 fields (name, type, year, price), found 2",
        ])
        #expect(try catalogue.product(named: "Two\nlines")?.year == 2002)
        #expect(try catalogue.product(named: "Last good") != nil)
    }

    @Test("A dry run counts like the import and writes nothing", arguments: EngineUnderTest.all)
    func dryRun(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let before = try CatalogueSnapshot(catalogue)
        let (counts, skipped) = try catalogue.importText(Product.self, Self.badCSV, onError: .skip, dryRun: true)
        #expect(counts == ImportCounts(added: 3, skipped: 4))
        #expect(skipped.count == 4)
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("Country checks under skip; aliases searchable after the import", arguments: EngineUnderTest.all)
    func countryChecks(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let text = """
            code,name,iso3,population,area_km2,aliases
            XA,Alpha,XAA,10,1.5,"Alpha Land; Alfa"
            xb,Beta,,,,
            XC,Gamma,XC,,,
            XD,Delta,,-1,,
            XE,Epsilon,,,-0.5,
            XF,,,,,

            """
        let (counts, skipped) = try catalogue.importText(Country.self, text, name: "c.csv", onError: .skip)
        #expect(counts == ImportCounts(added: 1, skipped: 5))
        #expect(skipped == [
            "c.csv:3: code: not a country code (two capital letters, e.g. CO): \"xb\"",
            "c.csv:4: iso3: not an ISO alpha-3 code (three capital letters, e.g. COL): \"XC\"",
            "c.csv:5: population: must not be negative: -1",
            "c.csv:6: area_km2: must not be negative: -0.5",
            "c.csv:7: name: must not be empty",
        ])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "alfa")).map(\.code) == ["XA"])
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "alpha la", mode: .words)).map(\.code) == ["XA"])
        let reimport = "code,name,aliases\nXA,Alpha,Alef\n"
        #expect(try catalogue.importText(Country.self, reimport).counts == ImportCounts(updated: 1))
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "alfa")).isEmpty)
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "alef")).map(\.code) == ["XA"])
    }

    @Test("A NUL character in a value: a bad row under skip, the import stopped under abort", arguments: EngineUnderTest.all)
    func nulCharacter(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let text = "name,type\nFine,t\nNul\u{0}name,t\nAlso fine,t\n"
        let (counts, skipped) = try catalogue.importText(Product.self, text, name: "n.csv", onError: .skip)
        switch engine {
        case .sqlite:
            // SQLite stores it.
            #expect(counts == ImportCounts(added: 3))
        case .postgres:
            // PostgreSQL text cannot hold it: the row is refused, with its line, and the rest lands.
            #expect(counts == ImportCounts(added: 2, skipped: 1))
            #expect(skipped == ["n.csv:3: name: PostgreSQL text cannot hold the NUL character (U+0000)"])
        }
        #expect(try catalogue.product(named: "Also fine") != nil)
    }

    @Test("JSON array with a syntax error stops the import and writes nothing", arguments: EngineUnderTest.all)
    func jsonSyntax(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let array = "[{\"name\": \"D\", \"type\": \"t\"},\n{\"name\": \"E\" \"type\": \"t\"}]"
        let before = try CatalogueSnapshot(catalogue)
        #expect(issueText { _ = try catalogue.importText(Product.self, array, name: "p.json", format: .json, onError: .skip) }
            == "p.json:2: expected ',' or '}' after a value")
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("Standard input: a pipe is read to its end", arguments: EngineUnderTest.all)
    func pipeInput(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue(seed: false)
        let pipe = Pipe()
        let text = "name,type\n" + (0..<20_000).map { "Piped \($0),t\n" }.joined()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(text.utf8))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let input = ImportInput(descriptor: pipe.fileHandleForReading.fileDescriptor, name: "<stdin>")
        let counts = try catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: .csv))
        #expect(counts.added == 20_000)
        #expect(try catalogue.count(Product.self) == 20_000)
    }
}
