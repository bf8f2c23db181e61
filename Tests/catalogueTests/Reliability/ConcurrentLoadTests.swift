import Foundation
import PostgresTestSupport
import Testing

/// 4 importer processes and 8 searcher processes on one database for 30 seconds (issue 13):
/// every import lands (no "database is locked", no other error), every count a searcher sees
/// is a whole number of imports, and the final count is exact.
@Suite("Concurrent load, 30 s (the built binary)", .serialized)
struct ConcurrentLoadTests {
    static let load = ConcurrentImportLoad { $0.contains("locked") || $0.contains("busy") }

    @Test("4 importers and 8 searchers for 30 s: 0 lock errors, 0 other errors, exact final count", .timeLimit(.minutes(5)))
    func load() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = runner.databasePath
            try #require(try runner.run(["search", "x"]).status == 0)
            let load = Self.load
            let outcome = load.run(database: database, directory: runner.directory)
            for (line, count) in zip(outcome.searchLines, outcome.seen) {
                #expect(count % load.rowsPerImport == 0, "a searcher saw part of an import: \(line)")
            }
            #expect(outcome.lockErrors.isEmpty, "\(outcome.lockErrors.count) lock errors: \(outcome.lockErrors.prefix(3))")
            #expect(outcome.otherErrors.isEmpty, "\(outcome.otherErrors.count) other errors: \(outcome.otherErrors.prefix(3))")
            #expect(try sqliteValue(database, "SELECT count(*) FROM product WHERE type = 'load'") == "\(outcome.total)")
            #expect(try sqliteValue(database, "PRAGMA integrity_check") == "ok")
            #expect(outcome.imports.count == outcome.importsAccountedFor)
            #expect(outcome.imports.overlappingPairs > 0, "the importers never ran at the same time")
            #expect(outcome.seen.contains { $0 > 0 && $0 < outcome.total }, "no search ran while the imports did")
            print("concurrent load: \(load.importers) importers, \(load.searchers) searchers, \(Int(load.seconds)) s: \(outcome.imported) imports of \(load.rowsPerImport) rows (\(outcome.total) rows, exact), \(outcome.searchLines.count) searches, \(outcome.imports.overlappingPairs) overlapping import pairs, \(outcome.lockErrors.count) lock errors, \(outcome.otherErrors.count) other errors")
        }
    }
}
