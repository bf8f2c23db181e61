import Foundation
import PostgresTestSupport
import Testing

/// Rows written by other tools (the sqlite3 shell) are searchable like the catalogue's own:
/// the schema gives their keys a default, triggers queue them, the catalogue folds them.
@Suite("Rows written by other tools (the built binary and the sqlite3 shell)")
struct OtherWritersTests {
    /// Runs SQL in the `sqlite3` shell; fails on a non-zero exit, with its error output.
    @discardableResult
    static func sqlite(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database, sql]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let (data, errorData) = readPipesToEnd(output: output, error: error)
        let errorText = String(decoding: errorData, as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 failed: \(errorText)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a product the sqlite3 shell inserts, with diacritics, is found by BEGINSWITH[cd]")
    func shellInsertIsSearchable() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            #expect(try runner.run(["search", "x"]).status == 0)   // creates the catalogue
            try Self.sqlite(runner.databasePath,
                "INSERT INTO product (name, type, year, price) VALUES ('Crème brûlée torch', 'Kitchen', 2019, 34.5)")
            let result = try runner.run(["search", "creme", "--entity", "products", "--format", "csv"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("Crème brûlée torch,Kitchen,2019,34.5"))
            // The keys are the library's folding, not SQLite's lower(): "crème" would not be.
            #expect(try Self.sqlite(runner.databasePath, "SELECT name_key || '|' || type_key FROM product WHERE name = 'Crème brûlée torch'")
                == "creme brulee torch|kitchen")
            #expect(try Self.sqlite(runner.databasePath, "SELECT count(*) FROM catalogue_refold") == "0")
            // Its words are searchable too (the FTS triggers run for any writer).
            let words = try runner.run(["search", "brulee", "--entity", "products", "--match", "words", "--format", "csv"])
            #expect(words.standardOutput.contains("Crème brûlée torch"))
        }
    }

    @Test("a country renamed and an alias added in the shell are found by their new names")
    func shellUpdatesAreSearchable() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            #expect(try runner.run(["search", "x"]).status == 0)
            try Self.sqlite(runner.databasePath, """
                UPDATE country SET capital = 'Santafé de Bogotá' WHERE code = 'CO';
                INSERT INTO country_alias (country_id, alias) SELECT id, 'Nueva Granada' FROM country WHERE code = 'CO';
                """)
            let capital = try runner.run(["search", "santafe", "--scope", "capital", "--format", "csv"])
            #expect(capital.standardOutput.contains("CO,Colombia,Santafé de Bogotá"))
            let alias = try runner.run(["search", "nueva gran", "--format", "csv"])
            #expect(alias.standardOutput.contains("CO,Colombia"))
        }
    }

    @Test("reindex folds keys another tool set wrong, and says how many")
    func reindex() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            #expect(try runner.run(["search", "x"]).status == 0)
            try Self.sqlite(runner.databasePath, "UPDATE product SET name_key = 'zzz' WHERE name = 'iPad'")
            #expect(try runner.run(["search", "ipad", "--entity", "products", "--format", "csv"]).standardOutput.contains("iPad,device") == false)
            let result = try runner.run(["reindex"])
            #expect(result.status == 0)
            #expect(result.standardOutput == "1 keys folded again.\n")
            #expect(try runner.run(["search", "ipad", "--entity", "products", "--format", "csv"]).standardOutput.contains("iPad,device"))
            #expect(try runner.run(["reindex"]).standardOutput == "Every key was up to date.\n")
        }
    }

    @Test("a catalogue an older version made: reading says to run reindex, which upgrades it, and reading works")
    func olderCatalogue() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["index"]).status == 0)
        // As the version before migration 10 left it: the migration not applied, a key unfolded.
        _ = try Self.sqlite(runner.databasePath, """
            DELETE FROM catalogue_migrations WHERE identifier = '0010_quote_folding';
            UPDATE country_alias SET alias_key = 'o‘zbekiston respublikasi' WHERE alias = 'O‘zbekiston Respublikasi';
            """)
        let refused = try runner.run(["search", "o'zbek"])
        #expect(refused.status == 1)
        #expect(refused.standardError == "catalogue: error: cannot read \(runner.databasePath): it was made by an older version of catalogue "
            + "and needs migration 0010_quote_folding, which reading does not apply; run catalogue reindex on it once to upgrade it (an import does too)\n")
        let reindex = try runner.run(["reindex"])
        #expect(reindex.status == 0, "\(reindex.standardError)")
        let found = try runner.run(["search", "o'zbek", "--format", "csv"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput.contains("\r\nUZ,"), "\(found.standardOutput)")
    }

    @Test("the schema after migration 3 passes the shell's integrity and foreign-key checks")
    func schemaChecks() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            #expect(try runner.run(["search", "x"]).status == 0)
            #expect(try Self.sqlite(runner.databasePath, "PRAGMA integrity_check") == "ok")
            #expect(try Self.sqlite(runner.databasePath, "PRAGMA foreign_key_check") == "")
            #expect(try Self.sqlite(runner.databasePath, "SELECT count(*) FROM country_alias") != "0")
            // Deleting a country still deletes its aliases (the rebuilt foreign key).
            try Self.sqlite(runner.databasePath, "PRAGMA foreign_keys = ON; DELETE FROM country WHERE code = 'CI'")
            #expect(try Self.sqlite(runner.databasePath,
                "SELECT count(*) FROM country_alias WHERE country_id NOT IN (SELECT id FROM country)") == "0")
        }
    }
}
