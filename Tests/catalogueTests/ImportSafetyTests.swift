import Foundation
import PostgresTestSupport
import Testing

/// `catalogue import` against hostile input and a hostile user (issue 13, items 5, 8 and 10):
/// deep JSON nesting, numbers that are not plain decimals, files that change nothing, partial
/// columns, read-only files, and signals before and after the commit.
@Suite("Import safety (the built binary)", .serialized)
struct ImportSafetyTests {
    /// Writes `text` to a file in the runner's directory and returns its path.
    static func write(_ text: String, _ name: String, in runner: CommandRunner) throws -> String {
        let path = runner.directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func preparedRunner() throws -> CommandRunner {
        let runner = try CommandRunner()
        try #require(try runner.run(["search", "x"]).status == 0)
        return runner
    }

    @Test("Nesting deeper than 64 levels is refused with FILE:LINE, in JSON and NDJSON, without a crash")
    func deepNesting() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let deep = String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)
            let json = try Self.write("[\n{\"name\": \(deep), \"type\": \"x\"}]\n", "deep.json", in: runner)
            let ndjson = try Self.write("{\"name\": \"ok\", \"type\": \"x\"}\n{\"name\": \(deep), \"type\": \"x\"}\n", "deep.ndjson", in: runner)
            for (file, line) in [(json, 2), (ndjson, 2)] {
                let result = try runner.run(["import", "products", file])
                #expect(result.status == 1, "\(file): \(result.standardError)")
                #expect(result.standardError == "catalogue: error: \(file):\(line): nesting deeper than 64 levels\n")
                #expect(!FileManager.default.fileExists(atPath: runner.databasePath + "-wal"), "the import did not close the database")
                #expect(!FileManager.default.fileExists(atPath: runner.databasePath + "-shm"))
            }
            // The limit counts levels from the outermost: an NDJSON object (1) holding 63 nested
            // arrays (2…64) is only refused for its nested arrays; one more level is too deep.
            let levels64 = "{\"name\": " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + ", \"type\": \"x\"}\n"
            let levels65 = "{\"name\": " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + ", \"type\": \"x\"}\n"
            let boundary = try Self.write(levels64 + levels65, "boundary.ndjson", in: runner)
            let skipped = try runner.run(["import", "products", boundary, "--on-error", "skip"])
            // Both rows skipped: nothing imported, which says so and exits 1.
            #expect(skipped.standardError == "\(boundary):1: name: nested arrays are not supported\n\(boundary):2: nesting deeper than 64 levels\n"
                + "catalogue: error: nothing imported: every row of \(boundary) was skipped\n")
        }
    }

    @Test("A header-only file, or one that changes nothing, leaves the database file byte for byte unchanged")
    func importChangingNothing() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let rows = try Self.write("name,type,year\nSteady,thing,2001\n", "rows.csv", in: runner)
            #expect(try runner.run(["import", "products", rows]).status == 0)
            _ = try sqliteValue(runner.databasePath, "PRAGMA wal_checkpoint(TRUNCATE)")
            let bytes = try #require(FileManager.default.contents(atPath: runner.databasePath))
            let header = try Self.write("name,type,year,price\n", "header.csv", in: runner)
            for (file, summary) in [(header, "Imported 0 products (0 added, 0 updated, 0 skipped)"),
                                    (rows, "Imported 1 product (0 added, 0 updated, 1 unchanged, 0 skipped)")] {
                let result = try runner.run(["import", "products", file])
                #expect(result.status == 0, "\(result.standardError)")
                #expect(result.standardOutput.hasPrefix(summary), "\(result.standardOutput)")
                _ = try sqliteValue(runner.databasePath, "PRAGMA wal_checkpoint(TRUNCATE)")
                #expect(FileManager.default.contents(atPath: runner.databasePath) == bytes, "\(file) changed the file")
            }
        }
    }

    @Test("Years and prices are plain decimals: hex, signs, exponents and bare dots are refused", arguments: [
        ("year", "0x7D0", "not a whole number: \"0x7D0\""), ("year", "+2000", "not a whole number: \"+2000\""),
        ("year", "2e3", "not a whole number: \"2e3\""), ("year", "1.", "not a whole number: \"1.\""),
        ("year", "0x1p3", "not a whole number: \"0x1p3\""), ("price", "1e-400", "not a plain decimal number: \"1e-400\""),
        ("price", "0x1p3", "not a plain decimal number: \"0x1p3\""), ("price", "+1", "not a plain decimal number: \"+1\""),
        ("price", "1.", "not a plain decimal number: \"1.\""), ("price", "2e3", "not a plain decimal number: \"2e3\""),
    ])
    func plainDecimals(column: String, value: String, reason: String) async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let csv = try Self.write("name,type,\(column)\nOdd,thing,\(value)\n", "n.csv", in: runner)
            let result = try runner.run(["import", "products", csv])
            #expect(result.status == 1)
            #expect(result.standardError == "catalogue: error: \(csv):2: \(column): \(reason)\n")
            let ndjson = try Self.write("{\"name\": \"Odd\", \"type\": \"thing\", \"\(column)\": \"\(value)\"}\n", "n.ndjson", in: runner)
            let fromJSON = try runner.run(["import", "products", ndjson])
            #expect(fromJSON.standardError == "catalogue: error: \(ndjson):1: \(column): \(reason)\n")
            let fine = try Self.write("name,type,year,price\nFine,thing,2007.0,4.50\n", "fine.csv", in: runner)
            #expect(try runner.run(["import", "products", fine]).status == 0)
        }
    }

    @Test("An upsert changes only the columns the file has")
    func partialColumns() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let before = try sqliteValue(runner.databasePath, "SELECT capital, population, aliases, official_name FROM country WHERE code = 'CO'")
            let countries = try Self.write("code,name\nCO,Kolombia\n", "c.csv", in: runner)
            let renamed = try runner.run(["import", "countries", countries])
            #expect(renamed.standardOutput.hasPrefix("Imported 1 country (0 added, 1 updated, 0 skipped)"), "\(renamed.standardError)")
            #expect(try sqliteValue(runner.databasePath, "SELECT capital, population, aliases, official_name FROM country WHERE code = 'CO'") == before)
            #expect(try sqliteValue(runner.databasePath, "SELECT name FROM country WHERE code = 'CO'") == "Kolombia")
            #expect(try runner.run(["search", "bogota", "--scope", "capital", "--format", "json"]).jsonNames() == ["Kolombia"])
            // JSON: a key that is there with null clears the column; an absent key keeps it.
            let json = try Self.write(#"[{"code": "CO", "capital": null, "name": "Colombia"}]"#, "c.json", in: runner)
            #expect(try runner.run(["import", "countries", json]).status == 0)
            #expect(try sqliteValue(runner.databasePath, "SELECT coalesce(capital, 'none'), population FROM country WHERE code = 'CO'")
                == "none|" + before.split(separator: "|")[1])
            // Products: a price-only file keeps the year.
            let products = try Self.write("name,type,price\niPhone,device,1.25\n", "p.csv", in: runner)
            #expect(try runner.run(["import", "products", products]).status == 0)
            #expect(try sqliteValue(runner.databasePath, "SELECT year, price FROM product WHERE name = 'iPhone'") == "2007|1.25")
        }
    }

    @Test("JSON errors name the line of the field, as --help says")
    func jsonErrorLines() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let json = try Self.write("[\n{\"name\": \"Late\",\n \"type\": \"thing\",\n \"year\": \"soon\"}]\n", "l.json", in: runner)
            let result = try runner.run(["import", "products", json])
            #expect(result.standardError == "catalogue: error: \(json):4: year: not a whole number: \"soon\"\n")
            let help = try runner.run(["import", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("LINE is the line of the value at fault: in CSV the line on which the row starts, in JSON and NDJSON the line of the field"), "\(help)")
        }
    }

    @Test("A file this user cannot write: --dry-run works, an import is refused with one line")
    func readOnlyFile() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let file = try Self.write("name,type\nBlocked,thing\n", "p.csv", in: runner)
            _ = try sqliteValue(runner.databasePath, "PRAGMA wal_checkpoint(TRUNCATE)")
            let bytes = try #require(FileManager.default.contents(atPath: runner.databasePath))
            try makeReadOnly(runner.databasePath)
            defer { try? undoReadOnly(runner.databasePath) }
            let dry = try runner.run(["import", "products", file, "--dry-run"])
            #expect(dry.status == 0, "\(dry.standardError)")
            #expect(dry.standardOutput.hasPrefix("Dry run: would import 1 product (1 added, 0 updated, 0 skipped) in "))
            let real = try runner.run(["import", "products", file])
            #expect(real.status == 1)
            #expect(real.standardError == "catalogue: error: cannot write \(runner.databasePath): this user cannot write the file; it is unchanged\n")
            #expect(FileManager.default.contents(atPath: runner.databasePath) == bytes)
        }
    }

    @Test("SIGTERM before the commit: nothing imported, and the message says so")
    func signalBeforeCommit() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("big.csv").path
            try writeProductsCSV(to: csv, count: 200_000, prefix: "Interrupted", type: "signal")
            let child = try ChildProcess(["import", "products", csv], database: runner.databasePath)
            Thread.sleep(forTimeInterval: 1)
            try #require(child.process.isRunning, "the import ended before the signal")
            child.kill(SIGTERM)
            let outcome = child.waitForOutcome()
            #expect(!outcome.killedBySignal && outcome.status == 128 + SIGTERM, "\(outcome.status) \(outcome.error)")
            #expect(outcome.error == "catalogue: interrupted; nothing was imported\n")
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'signal'") == "0")
        }
    }

    @Test("SIGTERM during a first import: no catalogue, and its temporary file is removed")
    func signalDuringFirstImport() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("big.csv").path
            try writeProductsCSV(to: csv, count: 200_000, prefix: "Interrupted", type: "signal")
            let temporary = runner.directory.appendingPathComponent(".catalogue.sqlite.creating").path
            #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
            let child = try ChildProcess(["import", "products", csv], database: runner.databasePath)
            Thread.sleep(forTimeInterval: 1)
            try #require(child.process.isRunning, "the import ended before the signal")
            #expect(FileManager.default.fileExists(atPath: temporary), "the import builds the catalogue in \(temporary)")
            child.kill(SIGTERM)
            let outcome = child.waitForOutcome()
            #expect(!outcome.killedBySignal && outcome.status == 128 + SIGTERM, "\(outcome.status) \(outcome.error)")
            #expect(outcome.error == "catalogue: interrupted; nothing was imported\n")
            #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
            let left = try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "\(left)")
            // The next import creates the catalogue as if nothing had happened.
            let small = runner.directory.appendingPathComponent("small.csv").path
            try writeProductsCSV(to: small, count: 10, prefix: "After", type: "signal")
            #expect(try runner.run(["import", "products", small]).status == 0)
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'signal'") == "10")
        }
    }

    @Test("SIGTERM after the commit: the summary is printed, then the signal is reported")
    func signalAfterCommit() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("rows.csv").path
            try writeProductsCSV(to: csv, count: 20_000, prefix: "Committed", type: "signal")
            // Standard output is a pipe already full, so the import blocks writing its summary,
            // after the commit, until the test reads.
            let pipe = Pipe()
            let capacity = Int(fcntl(pipe.fileHandleForWriting.fileDescriptor, 1032 /* F_GETPIPE_SZ */))
            try #require(capacity > 0)
            try pipe.fileHandleForWriting.write(contentsOf: Data(repeating: UInt8(ascii: "."), count: capacity))
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["import", "products", csv, "--db", runner.databasePath]
            let error = Pipe()
            process.standardOutput = pipe
            process.standardError = error
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'signal'") != "20000" {
                try #require(Date() < deadline && process.isRunning, "the import did not commit")
                Thread.sleep(forTimeInterval: 0.05)
            }
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, SIGTERM)
            try pipe.fileHandleForWriting.close()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile().dropFirst(capacity), as: UTF8.self)
            let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(output.hasPrefix("Imported 20,000 products (20,000 added, 0 updated, 0 skipped) in "), "\(output)")
            #expect(message == "catalogue: interrupted (signal \(SIGTERM)) after the import was committed\n", "\(message)")
            #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM)
        }
    }

    @Test("The seed is loaded once, at creation: a missing seeded_at never brings it back over edits")
    func seedOnce() async throws {
        try await onOwnThread {
            let runner = try Self.preparedRunner()
            defer { runner.cleanUp() }
            let file = try Self.write("code,name\nCO,Kolombia\n", "k.csv", in: runner)
            #expect(try runner.run(["import", "countries", file]).status == 0)
            _ = try sqliteValue(runner.databasePath, "DELETE FROM catalogue_info WHERE key = 'seeded_at'; DELETE FROM product WHERE name = 'iPhone';")
            for command in [["search", "kol", "--format", "json"], ["import", "products", file + ".none", "--format", "csv"]] {
                _ = try runner.run(command)
            }
            let empty = try Self.write("name,type\n", "empty.csv", in: runner)
            #expect(try runner.run(["import", "products", empty]).status == 0)
            #expect(try sqliteValue(runner.databasePath, "SELECT name FROM country WHERE code = 'CO'") == "Kolombia")
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE name = 'iPhone'") == "0")
        }
    }
}
