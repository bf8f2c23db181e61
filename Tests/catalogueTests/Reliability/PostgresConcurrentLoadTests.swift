#if PostgreSQL
import Foundation
import PostgresTestSupport
import Testing

/// 4 importer processes and 8 searcher processes on one PostgreSQL database for 30 seconds
/// (issue 10, item 5), as ``ConcurrentLoadTests`` does on SQLite: every import lands (no lock,
/// deadlock or serialization error, no other error), every count a searcher sees is a whole
/// number of imports, and the final count is exact.
@Suite("Concurrent load on PostgreSQL, 30 s (the built binary)", .serialized, .requiresPostgres)
struct PostgresConcurrentLoadTests {
    static let load = ConcurrentImportLoad { message in
        ["lock", "deadlock", "serializ", "could not obtain"].contains(where: message.contains)
    }

    @Test("4 importers and 8 searchers for 30 s: 0 lock errors, 0 other errors, exact final count", .timeLimit(.minutes(5)))
    func load() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = try PostgresTestServer.shared().createDatabase(prefix: "load")
            let seeded = try ChildProcess(["search", "x"], database: database.url).wait()
            try #require(seeded.status == 0, "\(seeded.error)")
            let load = Self.load
            let outcome = load.run(database: database.url, directory: runner.directory)
            for (line, count) in zip(outcome.searchLines, outcome.seen) {
                #expect(count >= 0 && count % load.rowsPerImport == 0, "a searcher saw part of an import: \(line)")
            }
            #expect(outcome.lockErrors.isEmpty, "\(outcome.lockErrors.count) lock errors: \(outcome.lockErrors.prefix(3))")
            #expect(outcome.otherErrors.isEmpty, "\(outcome.otherErrors.count) other errors: \(outcome.otherErrors.prefix(3))")
            #expect(try database.psql("SELECT count(*) FROM product WHERE type = 'load'") == "\(outcome.total)\n")
            #expect(try database.psql("SELECT count(DISTINCT name) FROM product WHERE type = 'load'") == "\(outcome.total)\n")
            #expect(outcome.imports.count == outcome.importsAccountedFor)
            #expect(outcome.imports.overlappingPairs > 0, "the importers never ran at the same time")
            #expect(outcome.seen.contains { $0 > 0 && $0 < outcome.total }, "no search ran while the imports did")
            print("concurrent load (postgres): \(load.importers) importers, \(load.searchers) searchers, \(Int(load.seconds)) s: \(outcome.imported) imports of \(load.rowsPerImport) rows (\(outcome.total) rows, exact), \(outcome.searchLines.count) searches (\(Set(outcome.seen).count) distinct counts), \(outcome.imports.overlappingPairs) overlapping import pairs, \(outcome.lockErrors.count) lock errors, \(outcome.otherErrors.count) other errors")
            try database.drop()
        }
    }
}
#endif
