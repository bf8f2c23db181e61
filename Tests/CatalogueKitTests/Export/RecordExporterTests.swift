@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import Foundation
import Testing

/// Export writes what import reads back: the same rows, in every format.
@Suite("Record exporter")
struct RecordExporterTests {
    /// What `export` writes for `type` in `format`.
    static func exported<R: ImportableRecord>(_ type: R.Type, _ catalogue: Catalogue, format: RecordFileFormat) throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("export")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try catalogue.exportRecords(type, format: format, to: ExportOutput(descriptor: handle.fileDescriptor, bufferSize: 1000))
        try handle.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("Countries and products, exported and imported into an empty catalogue: the same rows", arguments: RecordFileFormat.allCases)
    func roundTrip(format: RecordFileFormat) throws {
        let source = try seededCatalogue()
        try source.write { db in
            try db.upsert(Product(name: "Tricky, \"quoted\"\nname ", type: " spaced ", year: 0, price: 0.1 + 0.2))
            try db.upsert(Country(code: "XZ", name: "Zed; not an alias", capital: nil, population: 0, areaKm2: 1e20, aliases: ["Z, with comma"]))
        }
        let target = try emptyCatalogue()
        let countries = try Self.exported(Country.self, source, format: format)
        let products = try Self.exported(Product.self, source, format: format)
        let countryCounts = try target.importText(Country.self, countries, format: format).counts
        let productCounts = try target.importText(Product.self, products, format: format).counts
        #expect(countryCounts == ImportCounts(added: try source.rowCount("country")))
        #expect(productCounts == ImportCounts(added: try source.rowCount("product")))
        let (before, after) = (try CatalogueSnapshot(source), try CatalogueSnapshot(target))
        #expect(after.products == before.products)
        #expect(after.countries == before.countries)
        #expect(after.aliases == before.aliases)
        #expect(try Self.exported(Country.self, target, format: format) == countries)
        #expect(try Self.exported(Product.self, target, format: format) == products)
    }

    @Test("The CSV header and a row; JSON aliases are an array")
    func shapes() throws {
        let catalogue = try seededCatalogue()
        let csv = try Self.exported(Product.self, catalogue, format: .csv)
        #expect(csv.hasPrefix("id,name,type,year,price\r\n1,iPhone,device,2007,599\r\n"))
        let countries = try Self.exported(Country.self, catalogue, format: .csv)
        #expect(countries.hasPrefix("code,iso3,numeric_code,name,official_name,capital,continent,region,subregion,population,"
            + "area_km2,currency_code,currency_name,tld,calling_code,languages,neighbours,demonym,flag,aliases\r\n"))
        #expect(countries.contains("\r\nCI,CIV,384,Côte d'Ivoire,Republic of Côte d'Ivoire,Yamoussoukro,"))
        let json = try Self.exported(Country.self, catalogue, format: .json)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(array.count == 250)
        #expect(array.first { $0["code"] as? String == "GB" }?["aliases"] as? [String]
            == ["Great Britain", "UK", "United Kingdom of Great Britain and Northern Ireland"])
        let ndjson = try Self.exported(Product.self, catalogue, format: .ndjson)
        #expect(ndjson.split(separator: "\n").count == 74)
        #expect(ndjson.hasPrefix("{\"id\":1,\"name\":\"iPhone\",\"type\":\"device\",\"year\":2007,\"price\":599.0}\n"))
        let empty = try emptyCatalogue()
        #expect(try Self.exported(Product.self, empty, format: .json) == "[]\n")
        #expect(try Self.exported(Product.self, empty, format: .csv) == "id,name,type,year,price\r\n")
    }

    @Test("The seed's own JSON files import into an empty catalogue")
    func seedFiles() throws {
        let catalogue = try emptyCatalogue()
        let countries = try #require(CatalogueResources.seedFile("countries.json"))
        let products = try #require(CatalogueResources.seedFile("products.json"))
        #expect(try catalogue.importText(Country.self, countries, format: .json).counts.added == 250)
        #expect(try catalogue.importText(Product.self, products, format: .json).counts.added == 74)
        let seeded = try seededCatalogue()
        #expect(try catalogue.allCountries() == seeded.allCountries())
        #expect(try catalogue.allProducts() == seeded.allProducts())
    }
}

@Suite("Plain decimal export")
struct PlainDecimalExportTests {
    static let cases: [(Double, String)] = [
        (1e20, "100000000000000000000"), (1.5e-7, "0.00000015"), (-2.5e16, "-25000000000000000"), (0.49, "0.49"),
        (599, "599.0"), (0.30000000000000004, "0.30000000000000004"),
        (1e-300, "0." + String(repeating: "0", count: 299) + "1"),
        (Double.greatestFiniteMagnitude, "17976931348623157" + String(repeating: "0", count: 292)),
    ]

    @Test("Reals are written without exponents, and read back exactly", arguments: cases)
    func decimals(value: Double, text: String) throws {
        #expect(ExportText.decimal(value) == text)
        #expect(Double(ExportText.decimal(value)) == value)
        let plain = ExportText.plain(.real(value))
        #expect(ImportRow.plainDecimal(plain) != nil, "\(plain)")
        #expect(Double(plain) == value)
        let json = ExportText.json(.real(value))
        #expect(json.contains(".") && !json.contains("e"), "\(json)")
        #expect(Double(json) == value)
    }
}
