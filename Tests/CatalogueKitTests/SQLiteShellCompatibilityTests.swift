import CatalogueKit
import Foundation
import PostgresTestSupport
import Testing

/// A catalogue file is a plain SQLite database: the stock `sqlite3` shell, which knows none of
/// CatalogueKit's functions, reads and checks it.
@Suite("sqlite3 shell compatibility")
struct SQLiteShellCompatibilityTests {
    /// The sqlite3 shell: `/usr/bin/sqlite3` or the first one on `PATH`.
    static func shellPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/sqlite3"] + path.split(separator: ":").map { "\($0)/sqlite3" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `sql` on `file` in the sqlite3 shell.
    func shell(_ file: String, _ sql: String) throws -> ProgramResult {
        let executable = try #require(
            Self.shellPath(),
            "the sqlite3 command-line shell is missing (install it: apt-get install sqlite3); these tests need it")
        return try runProgram(executable, [file, sql])
    }

    /// Creates a seeded catalogue file and closes it (the `Catalogue` goes out of scope).
    func makeClosedCatalogue(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("catalogue.sqlite")
        do {
            let catalogue = try Catalogue(path: path)
            #expect(try catalogue.rowCount("country") >= 245)
        }
        return path
    }

    @Test("PRAGMA integrity_check is ok")
    func integrityCheck() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try makeClosedCatalogue(in: directory)
        let result = try shell(file, "PRAGMA integrity_check")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.isEmpty, "\(result.errorOutput)")
        #expect(result.lines == ["ok"])
    }

    @Test("The shell lists every country name, with its diacritics")
    func countryNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try makeClosedCatalogue(in: directory)
        let result = try shell(file, "SELECT name FROM country")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.lines.count >= 245)
        #expect(result.lines.contains("Côte d'Ivoire"))
        #expect(result.lines.contains("Türkiye"))
    }

    @Test("The full-text and trigram indexes pass FTS5's integrity check in the shell",
          arguments: ["product_fts", "country_fts", "product_name_key_trigram", "product_name_key_range_trigram"])
    func fullTextIntegrity(table: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try makeClosedCatalogue(in: directory)
        let result = try shell(file, "INSERT INTO \(table)(\(table)) VALUES('integrity-check')")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.isEmpty, "\(result.errorOutput)")
    }

    @Test("The shell can search the folded keys and the full-text index")
    func searchInShell() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try makeClosedCatalogue(in: directory)
        let prefix = try shell(file, "SELECT name FROM country WHERE name_key >= 'cote' AND name_key < 'cotf'")
        #expect(prefix.status == 0, "\(prefix.errorOutput)")
        #expect(prefix.lines == ["Côte d'Ivoire"])
        let words = try shell(file, "SELECT name FROM product WHERE id IN (SELECT rowid FROM product_fts WHERE product_fts MATCH '\"creme\"*') ORDER BY name")
        #expect(words.status == 0, "\(words.errorOutput)")
        #expect(words.lines == ["Crème brûlée torch set", "Crème rose sympathy wreath"])
    }

    @Test("The schema uses no function or collation of CatalogueKit")
    func schemaIsPlain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try makeClosedCatalogue(in: directory)
        let result = try shell(file, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%\(SQLiteDialect.foldFunctionName)%'")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.lines == ["0"])
        // The shell can write too: triggers and indexes need nothing from the library.
        let insert = try shell(file, "INSERT INTO product (name, name_key, type, type_key) VALUES ('Shell widget', 'shell widget', 'tools', 'tools')")
        #expect(insert.status == 0, "\(insert.errorOutput)")
        let reopened = try Catalogue(path: file)
        let found = try reopened.records(CatalogueSearch.products(matching: "shell w", mode: .words))
        #expect(found.map(\.name) == ["Shell widget"])
        // The key range triggers added the shell's key: a contains page, which reads the ranges, finds it.
        var contains = CatalogueSearch.products(matching: "ell widg", mode: .contains)
        contains.fetchLimit = 50
        #expect(try reopened.records(contains).map(\.name) == ["Shell widget"])
        let ranges = try shell(file, "INSERT INTO product_name_key_range_trigram (product_name_key_range_trigram) VALUES ('integrity-check')")
        #expect(ranges.status == 0, "\(ranges.errorOutput)")
        // The shell's key ends its document with the newlines that make its last letter start a
        // trigram, which the term table lists: a page of one letter finds it.
        let terms = try shell(file, "SELECT hex(term) FROM product_name_key_range_terms WHERE term >= 'et' AND term < 'eu'")
        #expect(terms.status == 0 && terms.lines.contains("65740A"), "\(terms.errorOutput) \(terms.lines)")
        var letter = FetchRequest<Product>(
            predicate: .contains("name", "t", options: .caseAndDiacriticInsensitive)
                && .beginsWith("name", "shell", options: .caseAndDiacriticInsensitive),
            sortDescriptors: .byName)
        letter.fetchLimit = 5
        let (served, scan) = try KeyRangePagesTests.pages(letter, in: reopened, shortTextScan: 0)
        #expect(served == scan && scan.count == 1)
    }
}
