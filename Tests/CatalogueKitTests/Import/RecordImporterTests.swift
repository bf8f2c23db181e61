@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import Foundation
import Testing

/// The importer on SQLite: header checks, JSON positions, long values, the full-text index
/// after a bulk import, progress. (The engine-neutral import tests, on SQLite and PostgreSQL,
/// are in CatalogueEngineTests/ImportAtomicityTests.)
@Suite("Record importer")
struct RecordImporterTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    static let goodCSV = #"""
        type,name,year,price,id
        device,Brio phone,2020,99.5,123
        kitchen,"Crème kettle, ""deluxe""",1999,,
        garden,"Multi
        line",,0,

        """#

    @Test("A CSV with columns in any order lands with keys and full-text entries")
    func importsCSV() throws {
        let before = try catalogue.rowCount("product")
        let (counts, skipped) = try catalogue.importText(Product.self, Self.goodCSV)
        #expect(counts == ImportCounts(added: 3))
        #expect(skipped.isEmpty)
        #expect(try catalogue.rowCount("product") == before + 3)
        let kettle = try #require(try catalogue.product(named: "Crème kettle, \"deluxe\""))
        #expect(kettle.type == "kitchen" && kettle.year == 1999 && kettle.price == nil)
        let multi = try #require(try catalogue.product(named: "Multi\nline"))
        #expect(multi.year == nil && multi.price == 0)
        // The `id` column is ignored: ids come from this database.
        #expect(try catalogue.product(named: "Brio phone")?.id != 123)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "creme k")).map(\.name) == ["Crème kettle, \"deluxe\""])
        #expect(try catalogue.fullTextProductIDs("kettl") == [kettle.id!])
        _ = try CatalogueSnapshot(catalogue)  // full-text integrity
    }

    @Test("Importing again: unchanged; changed values and type case: updated")
    func reimport() throws {
        _ = try catalogue.importText(Product.self, Self.goodCSV)
        let snapshot = try CatalogueSnapshot(catalogue)
        #expect(try catalogue.importText(Product.self, Self.goodCSV).counts == ImportCounts(unchanged: 3))
        #expect(try CatalogueSnapshot(catalogue) == snapshot)
        let changed = "name,type,price\nBrio phone,DEVICE,99.5\n\"Multi\nline\",garden,1\nNew one,device,\n"
        #expect(try catalogue.importText(Product.self, changed).counts == ImportCounts(added: 1, updated: 2))
        #expect(try catalogue.product(named: "Brio phone")?.type == "DEVICE")
        // A column the file does not have is left as it was: the year stays.
        #expect(try catalogue.product(named: "Brio phone")?.year == 2020)
        #expect(try catalogue.product(named: "Multi\nline")?.price == 1)
        _ = try CatalogueSnapshot(catalogue)
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

    @Test("Header problems stop the import under either policy", arguments: [
        ("name,type,colour\n", "h.csv:1: colour: unknown column; known columns: id, name, type, year, price"),
        // A spreadsheet's CSV in many locales, and TSV: said so, with what to do.
        ("name;type;year\nA;b;2001\n",
         "h.csv:1: name;type;year: unknown column; the header is separated by ';' where CSV fields are separated by commas: save the sheet as comma-separated CSV"),
        ("Name\t TYPE\nA\tb\n",
         "h.csv:1: Name\t TYPE: unknown column; the header is separated by tabs where CSV fields are separated by commas: save the sheet as comma-separated CSV"),
        // Not all known columns: the plain reason.
        ("name;colour\n", "h.csv:1: name;colour: unknown column; known columns: id, name, type, year, price"),
        ("name,type,Name\n", "h.csv:1: Name: duplicate column"),
        ("name,year\n", "h.csv:1: missing column type (required: name, type)"),
        ("", "h.csv:1: no header row: expected the column names (id, name, type, year, price)"),
        ("\"name,type\n", "h.csv:1: header: unterminated quoted field (it runs to the end of the file, line 1)"),
    ])
    func headerProblems(text: String, message: String) throws {
        for policy in ImportErrorPolicy.allCases {
            #expect(issueText { _ = try catalogue.importText(Product.self, text, name: "h.csv", onError: policy) } == message)
        }
    }

    @Test("Header names match ignoring case and spaces")
    func headerCase() throws {
        #expect(try catalogue.importText(Product.self, " Name ,TYPE\nX,y\n").counts == ImportCounts(added: 1))
    }

    @Test("JSON: errors name the line of the value")
    func jsonLines() throws {
        let text = """
            [
              {
                "name": "Fine",
                "type": "device"
              },
              {
                "name": "Broken",
                "type": "device",
                "year": "soon"
              },
              {"name": "Other", "type": "device", "colour": "red"}
            ]
            """
        let (counts, skipped) = try catalogue.importText(Product.self, text, name: "p.json", format: .json, onError: .skip)
        #expect(counts == ImportCounts(added: 1, skipped: 2))
        #expect(skipped == [
            "p.json:9: year: not a whole number: \"soon\"",
            "p.json:11: colour: unknown column; known columns: id, name, type, year, price",
        ])
    }

    @Test("NDJSON: a syntax error skips its line; in a JSON array it stops the import")
    func jsonSyntax() throws {
        let ndjson = "{\"name\": \"A\", \"type\": \"t\"}\n{\"name\": \"B\" \"type\": \"t\"}\n{\"name\": \"C\", \"type\": \"t\", \"price\": 2.5}\n"
        let (counts, skipped) = try catalogue.importText(Product.self, ndjson, name: "p.ndjson", format: .ndjson, onError: .skip)
        #expect(counts == ImportCounts(added: 2, skipped: 1))
        #expect(skipped == ["p.ndjson:2: expected ',' or '}' after a value"])
        #expect(try catalogue.product(named: "C")?.price == 2.5)
        let array = "[{\"name\": \"D\", \"type\": \"t\"},\n{\"name\": \"E\" \"type\": \"t\"}]"
        let before = try CatalogueSnapshot(catalogue)
        #expect(issueText { _ = try catalogue.importText(Product.self, array, name: "p.json", format: .json, onError: .skip) }
            == "p.json:2: expected ',' or '}' after a value")
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("Values longer than 10,000 characters are refused")
    func longValues() throws {
        let long = String(repeating: "é", count: 10_001)
        let text = "name,type\n\(String(repeating: "a", count: 10_000)),t\n\(long),t\n"
        let (counts, skipped) = try catalogue.importText(Product.self, text, name: "l.csv", onError: .skip)
        #expect(counts == ImportCounts(added: 1, skipped: 1))
        #expect(skipped == ["l.csv:3: name: longer than 10,000 characters"])
    }

    @Test("A header longer than the limit ends the import where the limit is passed, under either policy")
    func overlongHeader() throws {
        let before = try CatalogueSnapshot(catalogue)
        for policy in ImportErrorPolicy.allCases {
            let input = ImportInput(bytes: [UInt8](repeating: 0, count: 8 << 20), name: "zeros.csv")
            #expect(issueText {
                _ = try catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: .csv, onError: policy))
            } == "zeros.csv:1: header: longer than 10,000 characters")
            #expect(input.bytesRead < 1 << 20, "\(policy): read \(input.bytesRead) bytes")
        }
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("A UTF-16 file, CSV or JSON, is refused on its first line with the command that converts it; nothing changes")
    func otherUnicodeEncoding() throws {
        let before = try CatalogueSnapshot(catalogue)
        let files: [(String, RecordFileFormat?, String.Encoding)] = [
            ("sheet.csv", .csv, .utf16), ("sheet.json", .json, .utf16BigEndian), ("sheet.ndjson", .ndjson, .utf16LittleEndian),
            ("-", nil, .utf16),
        ]
        let texts: [RecordFileFormat: String] = [
            .csv: "name,type\nKazoo,music\n", .json: "[{\"name\": \"Kazoo\", \"type\": \"music\"}]",
            .ndjson: "{\"name\": \"Kazoo\", \"type\": \"music\"}\n",
        ]
        for (name, format, encoding) in files {
            let bytes = try #require(texts[format ?? .csv]!.data(using: encoding)).map { $0 }
            let input = ImportInput(bytes: bytes, name: name)
            let expected = encoding == .utf16BigEndian ? "UTF-16BE" : "UTF-16LE"
            #expect(issueText {
                _ = try catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: format ?? input.sniffedFormat()))
            } == "\(name):1: encoding: \(expected) text, not UTF-8; convert it first: iconv -f \(expected) -t UTF-8")
        }
        #expect(try CatalogueSnapshot(catalogue) == before)
    }

    @Test("Under abort nothing past the first bad row is read: a bad NDJSON line with no end costs nothing; under skip it is read through")
    func abortReadsNoFurther() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let aborting = ImportInput(bytes: zeros, name: "zeros.ndjson")
        let message = issueText { _ = try catalogue.importRecords(Product.self, from: aborting, options: ImportOptions(format: .ndjson)) }
        #expect(message?.hasPrefix("zeros.ndjson:1: ") == true, "\(message ?? "")")
        #expect(aborting.bytesRead < 1 << 20, "read \(aborting.bytesRead) bytes")
        let skipping = ImportInput(bytes: zeros + Array("\n{\"name\": \"Kazoo\", \"type\": \"music\"}\n".utf8), name: "zeros.ndjson")
        var skipped: [String] = []
        let counts = try catalogue.importRecords(
            Product.self, from: skipping, options: ImportOptions(format: .ndjson, onError: .skip), skipped: { skipped.append($0.description) })
        #expect(counts == ImportCounts(added: 1, skipped: 1))
        #expect(skipped.count == 1 && skipped[0].hasPrefix("zeros.ndjson:1: "), "\(skipped)")
        #expect(try catalogue.product(named: "Kazoo") != nil)
    }

    @Test("Under abort a value over the limit ends reading where the limit is passed, in CSV, JSON and NDJSON; under skip it is read through", arguments: [
        (RecordFileFormat.csv, "name,type\n", ",t\n"),
        (.csv, "name,type\n\"", "\",t\n"),
        (.json, "[{\"name\": \"ok\", \"type\": \"t\"},\n{\"type\": \"t\", \"name\": \"", "\"}]"),
        (.ndjson, "{\"name\": \"ok\", \"type\": \"t\"}\n{\"type\": \"t\", \"name\": \"", "\"}\n"),
    ])
    func overlongValueUnderAbort(format: RecordFileFormat, head: String, tail: String) throws {
        let bytes = Array(head.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20) + Array(tail.utf8)
        let before = try CatalogueSnapshot(catalogue)
        let aborting = ImportInput(bytes: bytes, name: "long.\(format)")
        let message = issueText {
            _ = try catalogue.importRecords(Product.self, from: aborting, options: ImportOptions(format: format))
        }
        #expect(message?.hasPrefix("long.\(format):2: ") == true && message?.hasSuffix(": longer than 10,000 characters") == true,
                "\(message ?? "")")
        #expect(aborting.bytesRead < 1 << 20, "read \(aborting.bytesRead) bytes")
        #expect(try CatalogueSnapshot(catalogue) == before)
        let skipping = ImportInput(bytes: bytes, name: "long.\(format)")
        var skipped: [String] = []
        let counts = try catalogue.importRecords(
            Product.self, from: skipping, options: ImportOptions(format: format, onError: .skip), skipped: { skipped.append($0.description) })
        #expect(counts.skipped == 1, "\(skipped)")
        #expect(skipping.bytesRead == bytes.count)
        #expect(skipped.first == message)
    }

    @Test("The full-text trigger is back after an import, a dry run and an abort")
    func triggerRestored() throws {
        let schema = try CatalogueSnapshot(catalogue).schema
        _ = try catalogue.importText(Product.self, Self.goodCSV)
        _ = try catalogue.importText(Product.self, Self.badCSV, onError: .skip, dryRun: true)
        _ = issueText { _ = try catalogue.importText(Product.self, Self.badCSV) }
        #expect(try CatalogueSnapshot(catalogue).schema == schema)
        // And it works: a product inserted afterwards is found by word.
        let saved = try catalogue.write { db in try db.insert(Product(name: "Zyzzyva lamp", type: "t")) }
        #expect(try catalogue.fullTextProductIDs("zyzz") == [saved.id!])
    }

    @Test("Progress is reported as rows go by, and at the end")
    func progress() throws {
        let text = "name,type\n" + (0..<3000).map { "P\($0),t\n" }.joined()
        var reports: [ImportProgress] = []
        _ = try catalogue.importRecords(
            Product.self, from: ImportInput(text: text, name: "p.csv"), options: ImportOptions(format: .csv),
            progress: { reports.append($0) })
        #expect(reports.filter { $0.phase == .rows }.map(\.rows) == [0, 1024, 2048, 3000])
        #expect(reports.last?.bytesRead == text.utf8.count)
        #expect(reports.last?.fraction == 1)
        // Then the full-text entries of the new rows are written, then the import commits.
        #expect(reports.suffix(2).map(\.phase) == [.indexing, .committing])
    }

    @Test("A file that does not exist")
    func missingFile() throws {
        #expect(issueText { _ = try ImportInput(path: "/nonexistent/p.csv") } == "cannot read /nonexistent/p.csv: No such file or directory")
    }
}
