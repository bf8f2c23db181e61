import Foundation
import PostgresTestSupport
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

    @Test("To a file: the format from its extension, --format over it, the same bytes as standard output, and a summary")
    func toFile() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        for (name, format) in [("c.csv", "csv"), ("c.json", "json"), ("c.ndjson", "ndjson"), ("c.JSONL", "ndjson"), ("c.txt", "json")] {
            let path = runner.directory.appendingPathComponent(name).path
            let result = try runner.run(["export", "countries", path] + (name.hasSuffix(".txt") ? ["--format", "json"] : []))
            #expect(result.status == 0, "\(name): \(result.standardError)")
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput.hasPrefix("Exported 250 countries to \(path) (\(format.uppercased())) in "), "\(result.standardOutput)")
            let piped = try runner.run(["export", "countries", "--format", format])
            #expect(FileManager.default.contents(atPath: path) == Data(piped.standardOutput.utf8), "\(name)")
        }
        // - is standard output, CSV unless told.
        let dash = try runner.run(["export", "products", "-"])
        #expect(dash.standardOutput.hasPrefix("id,name,type,year,price\r\n"))
        let unknown = try runner.run(["export", "products", runner.directory.appendingPathComponent("p.txt").path])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("catalogue: error: cannot tell the format of '"), "\(unknown.standardError)")
        #expect(!FileManager.default.fileExists(atPath: runner.directory.appendingPathComponent("p.txt").path))
        let left = try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).filter { $0.contains(".exporting-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("Replacing a file keeps its mode; a link's target is replaced, the link kept; a device is written as is")
    func replacing() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let target = runner.directory.appendingPathComponent("old.json").path
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        chmod(target, 0o640)
        let link = runner.directory.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "old.json")
        #expect(try runner.run(["export", "products", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "old.json")
        let written = try #require(FileManager.default.contents(atPath: target))
        #expect(try JSONSerialization.jsonObject(with: written) is [[String: Any]])
        #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o640)
        let discarded = try runner.run(["export", "products", "/dev/null", "--format", "csv"])
        #expect(discarded.status == 0, "\(discarded.standardError)")
        let full = try runner.run(["export", "products", "/dev/full", "--format", "csv"])
        #expect(full.status == 1)
        #expect(full.standardError == "catalogue: error: cannot write /dev/full: No space left on device\n")
    }

    @Test("The catalogue's own file, a directory and a missing directory are refused in one line; nothing changes")
    func refusedDestinations() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["search", "x"]).status == 0)
        let before = try #require(FileManager.default.contents(atPath: runner.databasePath))
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: runner.databasePath + suffix) || suffix.isEmpty {
            let database = try runner.run(["export", "products", runner.databasePath + suffix, "--format", "csv"])
            #expect(database.status == 1)
            #expect(database.standardError == "catalogue: error: cannot write \(runner.databasePath + suffix): it is the catalogue's database; export to another file\n")
        }
        #expect(FileManager.default.contents(atPath: runner.databasePath) == before)
        let directory = try runner.run(["export", "products", runner.directory.path, "--format", "csv"])
        #expect(directory.standardError == "catalogue: error: cannot write \(runner.directory.path): it is a directory; name a file in it\n")
        let missing = runner.directory.appendingPathComponent("no/such/p.csv").path
        let nowhere = try runner.run(["export", "products", missing])
        #expect(nowhere.status == 1)
        #expect(nowhere.standardError == "catalogue: error: cannot write \(missing): No such file or directory\n")
        let empty = try runner.run(["export", "products", ""])
        #expect(empty.status == 2)
    }

    @Test("SIGTERM during an export to a file: the file is as it was, the temporary file gone, and the message says so")
    func interrupted() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("big.csv").path
            try writeProductsCSV(to: csv, count: 200_000, prefix: "Exported", type: "signal")
            #expect(try runner.run(["import", "products", csv]).status == 0)
            let path = runner.directory.appendingPathComponent("products.json").path
            try "old".write(toFile: path, atomically: true, encoding: .utf8)
            let child = try ChildProcess(["export", "products", path], database: runner.databasePath)
            // Signal as soon as the rows are being written to the temporary file.
            let deadline = Date().addingTimeInterval(60)
            func temporaryFiles() throws -> [String] {
                try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).filter { $0.hasPrefix(".products.json.exporting-") }
            }
            while try temporaryFiles().isEmpty {
                try #require(Date() < deadline && child.process.isRunning, "the export ended before the signal")
                Thread.sleep(forTimeInterval: 0.001)
            }
            child.kill(SIGTERM)
            let outcome = child.waitForOutcome()
            #expect(!outcome.killedBySignal && outcome.status == 128 + SIGTERM, "\(outcome.status) \(outcome.error)")
            #expect(outcome.error == "catalogue: interrupted; \(path) was not written\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
            #expect(try temporaryFiles().isEmpty)
        }
    }

    @Test("--help has examples; a bad format is a usage error")
    func helpAndErrors() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["export", "--help"])
        #expect(help.standardOutput.contains("Examples:"))
        #expect(help.standardOutput.contains("catalogue export countries > countries.csv"))
        #expect(help.standardOutput.contains("catalogue export countries countries.json"))
        let bad = try runner.run(["export", "products", "--format", "table"])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("catalogue: error: "))
    }
}
