import Foundation
import Testing

/// `catalogue export` end to end: every column, each format, and the round trip through
/// `catalogue import` into a new database.
@Suite("catalogue export (the built binary)")
struct ExportCommandTests {
    @Test("Export, import into a new database, export again: identical", arguments: ["csv", "json", "ndjson"])
    func roundTrip(format: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // Rows that test the quoting: commas, quotes, line breaks, spaces, diacritics, aliases.
        let extra = "name,type,year,price\n\"Tricky, \"\"quoted\"\"\nname \",\" spaced type \",0,0.30000000000000004\nPlain,device,,\n"
        let extraFile = runner.directory.appendingPathComponent("extra.csv").path
        try extra.write(toFile: extraFile, atomically: true, encoding: .utf8)
        #expect(try runner.run(["import", "products", extraFile]).status == 0)
        let countryFile = runner.directory.appendingPathComponent("xz.ndjson").path
        try #"{"code": "XZ", "name": "Zed, \"the\" land", "area_km2": 100000000000000000000, "aliases": ["Z land", "Zedland"]}"#
            .write(toFile: countryFile, atomically: true, encoding: .utf8)
        #expect(try runner.run(["import", "countries", countryFile]).status == 0)

        var exports: [String: String] = [:]
        for entity in ["countries", "products"] {
            let result = try runner.run(["export", entity, "--format", format])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            exports[entity] = result.standardOutput
        }

        let copy = runner.directory.appendingPathComponent("copy.sqlite").path
        for entity in ["countries", "products"] {
            let file = runner.directory.appendingPathComponent("\(entity).\(format)").path
            try exports[entity]!.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try runner.run(["import", entity, file, "--db", copy])
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(imported.standardError.isEmpty)
        }
        for entity in ["countries", "products"] {
            let again = try runner.run(["export", entity, "--format", format, "--db", copy])
            #expect(again.standardOutput == exports[entity], "\(entity)")
        }
        // Every stored column agrees, keys and aliases included.
        let tables = "SELECT * FROM product ORDER BY id; SELECT * FROM country ORDER BY id; SELECT * FROM country_alias ORDER BY country_id, alias"
        #expect(try sqliteValue(copy, "SELECT hex(sha3_query('\(tables)'))") == sqliteValue(runner.databasePath, "SELECT hex(sha3_query('\(tables)'))"))
    }

    @Test("CSV: a header with every column, CRLF line ends, aliases joined with '; '")
    func csvShape() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let countries = try runner.run(["export", "countries"])
        let lines = countries.standardOutput.components(separatedBy: "\r\n")
        #expect(lines.first == "code,iso3,numeric_code,name,official_name,capital,continent,region,subregion,population,area_km2,"
            + "currency_code,currency_name,tld,calling_code,languages,neighbours,demonym,flag,aliases")
        #expect(lines.count == 252)  // header, 250 countries, and the empty string after the last CRLF
        #expect(lines.contains { $0.hasPrefix("CI,CIV,384,Côte d'Ivoire,") && $0.hasSuffix(",Ivory Coast; Republic of Côte d'Ivoire; République de Côte d'Ivoire") })
        #expect(lines.contains { $0.hasPrefix("BQ,BES,535,\"Bonaire, Sint Eustatius and Saba\",") })
        let products = try runner.run(["export", "products"])
        #expect(products.standardOutput.hasPrefix("id,name,type,year,price\r\n1,iPhone,device,2007,599\r\n"))
    }

    @Test("JSON is an array of objects; NDJSON one object per line")
    func jsonShapes() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let json = try runner.run(["export", "products", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.count == 74)
        #expect(Set(array[0].keys) == ["id", "name", "type", "year", "price"])
        let ndjson = try runner.run(["export", "countries", "--format", "ndjson"])
        let lines = ndjson.standardOutput.split(separator: "\n")
        #expect(lines.count == 250)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first.count == 20)
        #expect(first["aliases"] is [String])
    }

    @Test("--help has examples; a bad format is a usage error")
    func helpAndErrors() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["export", "--help"])
        #expect(help.standardOutput.contains("Examples:"))
        #expect(help.standardOutput.contains("catalogue export countries > countries.csv"))
        let bad = try runner.run(["export", "products", "--format", "table"])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("catalogue: error: "))
    }
}
