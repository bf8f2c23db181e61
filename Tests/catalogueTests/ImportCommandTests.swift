import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

/// `catalogue import` end to end: good files, malformed CSV under both policies with exact line
/// numbers, a database left exactly as it was by an aborted import, dry runs, standard input,
/// CRLF and a byte order mark.
@Suite("catalogue import (the built binary)")
struct ImportCommandTests {
    /// A checksum of every row of product, country and country_alias, once the full-text and
    /// trigram indexes pass their integrity check.
    static func checksum(_ database: String) throws -> String {
        let check = "INSERT INTO product_fts (product_fts) VALUES ('integrity-check'); "
            + "INSERT INTO country_fts (country_fts) VALUES ('integrity-check'); "
            + "INSERT INTO product_name_key_trigram (product_name_key_trigram) VALUES ('integrity-check'); SELECT 'fts ok';"
        #expect(try sqliteValue(database, check) == "fts ok")
        #expect(try sqliteValue(database, "PRAGMA integrity_check") == "ok")
        return try sqliteValue(database, "SELECT hex(sha3_query('SELECT * FROM product ORDER BY id; "
            + "SELECT * FROM country ORDER BY id; SELECT * FROM country_alias ORDER BY country_id, alias'))")
    }

    /// A runner whose database exists (created and seeded).
    static func preparedRunner() throws -> CommandRunner {
        let runner = try CommandRunner()
        try #require(try runner.run(["search", "x"]).status == 0)
        return runner
    }

    /// Writes `bytes` to a file in the runner's directory and returns its path.
    static func write(_ bytes: [UInt8], _ name: String, in runner: CommandRunner) throws -> String {
        let path = runner.directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Lines 1–4: a header, a row, and a row whose quoted name spans lines 3 and 4. Line 5 is the
    /// bad row of each case; line 6 is good.
    static let before = Array("name,type,year,price\nGood one,device,2001,1\n\"Two\nlines\",device,2002,2\n".utf8)
    static let after = Array("Last good,device,2005,5\n".utf8)

    struct Malformed: CustomTestStringConvertible, Sendable {
        let name: String
        let row: [UInt8]
        let message: String
        let addedWhenSkipped: Int
        var testDescription: String { name }
    }

    static let malformed = [
        Malformed(name: "unterminated quote", row: Array("\"Never closed,device,2003,3\n".utf8),
                  message: "5: name: unterminated quoted field (it runs to the end of the file, line 6)", addedWhenSkipped: 2),
        Malformed(name: "wrong column count", row: Array("Too,many,fields,2003,3\n".utf8),
                  message: "5: expected 4 fields (name, type, year, price), found 5", addedWhenSkipped: 3),
        Malformed(name: "non-numeric year", row: Array("Bad year,device,20x7,3\n".utf8),
                  message: "5: year: not a whole number: \"20x7\"", addedWhenSkipped: 3),
        Malformed(name: "invalid UTF-8", row: Array("Bad ".utf8) + [0xFF, 0xFE] + Array(" name,device,2003,3\n".utf8),
                  message: "5: name: invalid UTF-8", addedWhenSkipped: 3),
    ]

    @Test("Malformed CSV with --on-error abort: one error line with FILE:LINE, exit 1, database unchanged", arguments: malformed)
    func abortOnMalformed(_ bad: Malformed) throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Self.before + bad.row + Self.after, "bad.csv", in: runner)
        let checksum = try Self.checksum(runner.databasePath)
        for arguments in [["import", "products", file], ["import", "products", file, "--on-error", "abort"]] {
            let result = try runner.run(arguments)
            #expect(result.status == 1)
            #expect(result.standardError == "catalogue: error: \(file):\(bad.message)\n")
            #expect(result.standardOutput.isEmpty)
            #expect(try Self.checksum(runner.databasePath) == checksum)
        }
    }

    @Test("Malformed CSV with --on-error skip: each skipped line on stderr, the good rows land", arguments: malformed)
    func skipMalformed(_ bad: Malformed) throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Self.before + bad.row + Self.after, "bad.csv", in: runner)
        let result = try runner.run(["import", "products", file, "--on-error", "skip"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "\(file):\(bad.message)\n")
        #expect(result.standardOutput.hasPrefix(
            "Imported \(bad.addedWhenSkipped) products (\(bad.addedWhenSkipped) added, 0 updated, 1 skipped) in "))
        #expect(result.standardOutput.hasSuffix(" s\n"))
        let found = try runner.run(["search", "", "--entity", "products", "--scope", "device", "--limit", "0", "--format", "json"])
        let names = try found.jsonNames()
        #expect(names.contains("Two\nlines") && names.contains("Good one"))
        #expect(names.contains("Last good") == (bad.addedWhenSkipped == 3))
        _ = try Self.checksum(runner.databasePath)
    }

    @Test("An unknown column stops the import under either policy, listing the known ones")
    func unknownColumn() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Array("name,type,colour\nA,device,red\n".utf8), "colour.csv", in: runner)
        let checksum = try Self.checksum(runner.databasePath)
        for policy in ["abort", "skip"] {
            let result = try runner.run(["import", "products", file, "--on-error", policy])
            #expect(result.status == 1)
            #expect(result.standardError == "catalogue: error: \(file):1: colour: unknown column; known columns: id, name, type, year, price\n")
            #expect(try Self.checksum(runner.databasePath) == checksum)
        }
    }

    @Test("A header separated by semicolons (a spreadsheet's CSV in many locales) says so and what to do")
    func semicolonHeader() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Array("name;type;year\nLamp;lighting;2001\n".utf8), "semicolons.csv", in: runner)
        let checksum = try Self.checksum(runner.databasePath)
        let result = try runner.run(["import", "products", file])
        #expect(result.status == 1)
        #expect(result.standardError == "catalogue: error: \(file):1: name;type;year: unknown column; the header is separated by ';' "
            + "where CSV fields are separated by commas: save the sheet as comma-separated CSV\n")
        #expect(try Self.checksum(runner.databasePath) == checksum)
    }

    @Test("A number written with thousands separators or a decimal comma is refused with what to write instead")
    func numbersAsPeopleWriteThem() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let countries = try Self.write(Array("code,name,population\nZZ,Zed,\"49,648,685\"\n".utf8), "zed.csv", in: runner)
        let products = try Self.write(Array("name,type,price\nLamp,lighting,\"4,50\"\n".utf8), "lamp.csv", in: runner)
        let checksum = try Self.checksum(runner.databasePath)
        let country = try runner.run(["import", "countries", countries])
        #expect(country.status == 1)
        #expect(country.standardError == "catalogue: error: \(countries):2: population: not a whole number: \"49,648,685\" (write it in digits only: 49648685)\n")
        let product = try runner.run(["import", "products", products])
        #expect(product.status == 1)
        #expect(product.standardError == "catalogue: error: \(products):2: price: not a plain decimal number: \"4,50\" "
            + "(write it with a decimal point and no thousands separators, e.g. 1234.5)\n")
        #expect(try Self.checksum(runner.databasePath) == checksum)
    }

    @Test("--dry-run checks and counts, and changes nothing")
    func dryRun() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Self.before + Array("Bad year,device,20x7,3\n".utf8) + Self.after, "dry.csv", in: runner)
        let checksum = try Self.checksum(runner.databasePath)
        let result = try runner.run(["import", "products", file, "--dry-run", "--on-error", "skip"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Dry run: would import 3 products (3 added, 0 updated, 1 skipped) in "))
        #expect(result.standardOutput.hasSuffix(" s; nothing was written\n"))
        #expect(result.standardError == "\(file):5: year: not a whole number: \"20x7\"\n")
        #expect(try Self.checksum(runner.databasePath) == checksum)
        let aborted = try runner.run(["import", "products", file, "--dry-run"])
        #expect(aborted.status == 1)
        #expect(try Self.checksum(runner.databasePath) == checksum)
    }

    @Test("Importing the same file again: unchanged; a changed price: updated")
    func reimport() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = try Self.write(Self.before + Self.after, "p.csv", in: runner)
        #expect(try runner.run(["import", "products", file]).standardOutput.hasPrefix("Imported 3 products (3 added, 0 updated, 0 skipped)"))
        #expect(try runner.run(["import", "products", file]).standardOutput.hasPrefix(
            "Imported 3 products (0 added, 0 updated, 3 unchanged, 0 skipped)"))
        let changed = try Self.write(Array("name,type,price\nGood one,device,1.25\n".utf8), "changed.csv", in: runner)
        #expect(try runner.run(["import", "products", changed]).standardOutput.hasPrefix("Imported 1 product (0 added, 1 updated, 0 skipped)"))
    }

    @Test("Standard input from a program slow to end holds no lock meanwhile: another import goes ahead")
    func slowStandardInput() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let other = try Self.write(Array("name,type\nMeanwhile,tool\n".utf8), "other.csv", in: runner)
        // The piped import starts at once and its input ends 2 s later; the other import, started
        // half a second in, would give up after 1 s if the first held the write lock.
        let script = """
            (sleep 2; printf 'name,type\\nSlow pipe,tool\\n') | "$0" import products - > "$1" 2>&1 &
            sleep 0.5
            "$0" import products "$2" --wait-timeout 1; echo "other exit $?"
            wait $!; echo "piped exit $?"; cat "$1"
            """
        let log = runner.directory.appendingPathComponent("piped.log").path
        let result = try runner.runProgram("/bin/sh", ["-c", script, CommandRunner.executable.path, log, other])
        #expect(result.standardOutput.contains("Imported 1 product (1 added, 0 updated, 0 skipped)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("other exit 0\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("piped exit 0\n"), "\(result.standardOutput)")
        let found = try runner.run(["search", "", "--entity", "products", "--scope", "tool", "--format", "json"])
        #expect(Set(try found.jsonNames()).isSuperset(of: ["Meanwhile", "Slow pipe"]))
    }

    @Test("Standard input: CSV by its content, --format for JSON and NDJSON")
    func standardInput() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let csv = try runner.run(["import", "products", "-"], input: Data("name,type\nPiped one,stdin\n".utf8))
        #expect(csv.status == 0, "\(csv.standardError)")
        #expect(csv.standardOutput.hasPrefix("Imported 1 product (1 added, 0 updated, 0 skipped) in "))
        let ndjson = try runner.run(["import", "products", "-", "--format", "ndjson"],
                                    input: Data("{\"name\": \"Piped two\", \"type\": \"stdin\", \"year\": 2024}\n".utf8))
        #expect(ndjson.status == 0, "\(ndjson.standardError)")
        let bad = try runner.run(["import", "products", "-"], input: Data("name,type,year\nX,stdin,soon\n".utf8))
        #expect(bad.standardError == "catalogue: error: <stdin>:2: year: not a whole number: \"soon\"\n")
        let found = try runner.run(["search", "", "--entity", "products", "--scope", "stdin", "--format", "json"])
        #expect(try found.jsonNames() == ["Piped one", "Piped two"])
    }

    @Test("Standard input without --format: [ is JSON, { is NDJSON, anything else CSV (after a BOM and spaces)", arguments: [
        ("[{\"name\": \"Sniffed\", \"type\": \"stdin\"}]", "Sniffed"),
        ("\n  \t[\n{\"name\": \"Sniffed\", \"type\": \"stdin\"}]\n", "Sniffed"),
        ("\u{FEFF}[{\"name\": \"Sniffed\", \"type\": \"stdin\"}]", "Sniffed"),
        ("{\"name\": \"Sniffed\", \"type\": \"stdin\"}\n{\"name\": \"Sniffed too\", \"type\": \"stdin\"}\n", "Sniffed too"),
        ("name,type\nSniffed,stdin\n", "Sniffed"),
        ("\u{FEFF}name,type\r\nSniffed,stdin\r\n", "Sniffed"),
    ])
    func sniffedStandardInput(input: String, expected: String) throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["import", "products", "-"], input: Data(input.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let found = try runner.run(["search", "sniffed", "--entity", "products", "--format", "json"])
        #expect(try found.jsonNames().contains(expected))
        // A file's name still decides, and --format still overrides.
        let forced = try runner.run(["import", "products", "-", "--format", "csv"], input: Data("[{\"name\":\"x\"}]".utf8))
        #expect(forced.status == 1)
    }

    @Test("Nothing imported because every row was skipped: exit 1; a file without rows: exit 0")
    func everyRowSkipped() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let file = runner.directory.appendingPathComponent("bad.csv")
        try "name,type,year\nX,stdin,soon\nY,stdin,later\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try runner.run(["import", "products", file.path, "--on-error", "skip"])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("Imported 0 products (0 added, 0 updated, 2 skipped) in "))
        #expect(result.standardError.hasSuffix("catalogue: error: nothing imported: every row of \(file.path) was skipped\n"), "\(result.standardError)")
        let dryRun = try runner.run(["import", "products", file.path, "--on-error", "skip", "--dry-run"])
        #expect(dryRun.status == 1)
        let empty = runner.directory.appendingPathComponent("empty.csv")
        try "name,type\n".write(to: empty, atomically: true, encoding: .utf8)
        let none = try runner.run(["import", "products", empty.path, "--on-error", "skip"])
        #expect(none.status == 0, "\(none.standardError)")
        let some = runner.directory.appendingPathComponent("some.csv")
        try "name,type,year\nX,stdin,soon\nGood,stdin,2020\n".write(to: some, atomically: true, encoding: .utf8)
        let partial = try runner.run(["import", "products", some.path, "--on-error", "skip"])
        #expect(partial.status == 0)
    }

    @Test("A spreadsheet's UTF-16 \"Unicode text\" is refused in one line with the iconv command; converted, it imports")
    func utf16File() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let text = "name,type,year,price\r\nCrème brûlée,dessert,2020,4.5\r\n"
        let file = try Self.write(try #require(text.data(using: .utf16)).map { $0 }, "sheet.csv", in: runner)
        let before = try runner.run(["export", "products", "--format", "csv"])
        let refused = try runner.run(["import", "products", file])
        #expect(refused.status == 1)
        #expect(refused.standardError == "catalogue: error: \(file):1: encoding: UTF-16LE text, not UTF-8; convert it first: iconv -f UTF-16LE -t UTF-8\n")
        #expect(try runner.run(["export", "products", "--format", "csv"]).standardOutput == before.standardOutput)
        let converted = try runner.runProgram("/bin/sh", ["-c", "iconv -f UTF-16LE -t UTF-8 '\(file)' | '\(CommandRunner.executable.path)' import products -"])
        #expect(converted.status == 0, "\(converted.standardError)")
        #expect(try runner.run(["search", "creme brulee", "--entity", "products", "--format", "json"]).jsonNames().contains("Crème brûlée"))
        #expect(converted.standardOutput.hasPrefix("Imported 1 product (1 added, "), "\(converted.standardOutput)")
    }

    @Test("A file of the other entity says what it holds and the command that imports it; singular names are taken")
    func otherEntity() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let products = try Self.write(Array("name,type,year\nKazoo,music,2001\n".utf8), "p.csv", in: runner)
        let asCountries = try runner.run(["import", "countries", products])
        #expect(asCountries.status == 1)
        #expect(asCountries.standardError.hasPrefix("catalogue: error: \(products):1: type: unknown column; known columns: id, code, "))
        #expect(asCountries.standardError.hasSuffix(" (\(products) holds products: catalogue import products \(products))\n"),
                "\(asCountries.standardError)")
        let countries = try Self.write(Array(#"[{"code": "QZ", "name": "Testland"}]"#.utf8), "c.json", in: runner)
        let asProducts = try runner.run(["import", "products", countries])
        #expect(asProducts.standardError == "catalogue: error: \(countries):1: code: unknown column; known columns: id, name, type, "
            + "year, price (\(countries) holds countries: catalogue import countries \(countries))\n")
        let piped = try runner.run(["import", "countries", "-"], input: Data("name,type\nKazoo,music\n".utf8))
        #expect(piped.standardError.hasSuffix(" (the input holds products: catalogue import products -)\n"), "\(piped.standardError)")
        // A column of neither entity gets no hint.
        let neither = try Self.write(Array("name,colour\nKazoo,red\n".utf8), "n.csv", in: runner)
        #expect(!(try runner.run(["import", "products", neither]).standardError.contains(" holds ")))
        // Singular and capitalized entity names are the entity.
        let singular = try runner.run(["import", "Product", products])
        #expect(singular.status == 0, "\(singular.standardError)")
        #expect(try runner.run(["search", "kazoo", "--entity", "product", "--format", "json"]).jsonNames() == ["Kazoo"])
        #expect(try runner.run(["export", "country", "--format", "csv"]).standardOutput.hasPrefix("code,"))
    }

    @Test("A CRLF file with a UTF-8 byte order mark")
    func crlfAndByteOrderMark() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let text = "name,type,year,price\r\n\"Crème, \"\"brûlée\"\"\",dessert,2020,4.5\r\n\"Line\r\nbreak\",dessert,,\r\n"
        let file = try Self.write([0xEF, 0xBB, 0xBF] + Array(text.utf8), "crlf.csv", in: runner)
        let result = try runner.run(["import", "products", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Imported 2 products (2 added, 0 updated, 0 skipped)"))
        let found = try runner.run(["search", "", "--entity", "products", "--scope", "dessert", "--format", "json"])
        #expect(try found.jsonNames() == ["Crème, \"brûlée\"", "Line\r\nbreak"])
    }

    @Test("Countries from JSON, with aliases; the format comes from the extension")
    func countriesJSON() throws {
        let runner = try Self.preparedRunner()
        defer { runner.cleanUp() }
        let json = #"[{"code": "XK", "name": "Kosovo", "capital": "Pristina", "population": 1800000, "aliases": ["Kosova", "Dardania"]}]"#
        let file = try Self.write(Array(json.utf8), "countries.json", in: runner)
        let result = try runner.run(["import", "countries", file])
        #expect(result.standardOutput.hasPrefix("Imported 1 country (0 added, 1 updated, 0 skipped)"), "\(result.standardError)")
        #expect(try runner.run(["search", "dardan", "--format", "json"]).jsonNames() == ["Kosovo"])
        _ = try Self.checksum(runner.databasePath)
    }

    @Test("Usage and file errors", arguments: [
        (["import", "products", "data.txt"], 2, "catalogue: error: cannot tell the format of 'data.txt' from its extension; use --format csv, json or ndjson"),
        (["import", "products", "/nonexistent/p.csv"], 1, "catalogue: error: cannot read /nonexistent/p.csv: No such file or directory"),
        (["import", "products", "p.csv", "--on-error", "ignore"], 2, "catalogue: error: The value 'ignore' is invalid for '--on-error <on-error>'"),
        (["import", "planets", "p.csv"], 2, "catalogue: error: The value 'planets' is invalid for '<entity>'"),
    ])
    func usageErrors(arguments: [String], status: Int32, message: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments)
        #expect(result.status == status)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath), "a failed import created the database")
    }

    @Test("An input with no end and no line break (/dev/zero) fails at its first line at once, not read for ever")
    func endlessHeader() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // timeout(1) ends the old behaviour (reading /dev/zero until killed) as a failure, not a hang.
        let result = try runner.runProgram(
            "/usr/bin/timeout", ["60", CommandRunner.executable.path, "import", "products", "/dev/zero", "--format", "csv"])
        #expect(result.status == 1)
        #expect(result.standardError == "catalogue: error: /dev/zero:1: header: longer than 10,000 characters\n")
        // NDJSON: the first line is not an object, and the import stops there.
        let ndjson = try runner.runProgram(
            "/usr/bin/timeout", ["60", CommandRunner.executable.path, "import", "products", "/dev/zero", "--format", "ndjson"])
        #expect(ndjson.status == 1)
        #expect(ndjson.standardError.hasPrefix("catalogue: error: /dev/zero:1: "), "\(ndjson.standardError)")
    }

    @Test("--help explains the columns and policies, with examples")
    func help() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["import", "--help"])
        #expect(result.status == 0)
        for text in ["--on-error", "--dry-run", "--format", "FILE:LINE: column: reason", "Examples:", "catalogue import products products.csv"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
        let root = try runner.run(["--help"])
        for command in ["import", "export", "show"] {
            #expect(root.standardOutput.contains("  \(command) "), "\(command)")
        }
    }

    @Test("A failed first import announces the catalogue only when it made the file: not after a wait given up, nor a failed creation")
    func createdCatalogueAfterFailure() {
        let badRow = ImportIssue(source: "products.csv", line: 3, column: "year", reason: "not a whole number")
        #expect(ImportCommand.leftCatalogue(after: badRow, fileExists: true))
        #expect(!ImportCommand.leftCatalogue(after: badRow, fileExists: false))
        // Another process's first import outlasted --wait-timeout: its catalogue, not ours.
        let busy = DatabaseError(code: .SQLITE_BUSY, message: "another process is creating c.sqlite; gave up waiting for it")
        #expect(!ImportCommand.leftCatalogue(after: busy, fileExists: true))
        // Another program's file appeared at the path during the import.
        let taken = CatalogueError.cannotCreate(path: "c.sqlite", reason: "another program created it during the import; nothing was imported")
        #expect(!ImportCommand.leftCatalogue(after: taken, fileExists: true))
    }
}
