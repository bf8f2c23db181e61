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
    static let importers = 4
    static let searchers = 8
    static let seconds = 30.0
    static let rowsPerImport = 500
    /// Bounds on every loop, so a regression cannot spin forever.
    static let maximumImportsPerImporter = 400
    static let maximumSearchesPerSearcher = 2_000

    @Test("4 importers and 8 searchers for 30 s: 0 lock errors, 0 other errors, exact final count", .timeLimit(.minutes(5)))
    func load() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let database = try PostgresTestServer.shared().createDatabase(prefix: "load")
        let url = database.url
        let seeded = try ChildProcess(["search", "x"], database: url).wait()
        try #require(seeded.status == 0, "\(seeded.error)")
        let deadline = Date().addingTimeInterval(Self.seconds)
        let importersDone = SharedFlag()
        let lockErrors = LockedStrings()
        let otherErrors = LockedStrings()
        let completed = LockedStrings()
        let counts = LockedStrings()
        let imports = IntervalLog()
        let directory = runner.directory
        runThreads(Self.importers + Self.searchers) { worker in
            func fail(_ message: String) {
                if ["lock", "deadlock", "serializ", "could not obtain"].contains(where: message.contains) {
                    lockErrors.append(message)
                } else {
                    otherErrors.append(message)
                }
            }
            do {
                if worker < Self.importers {
                    defer { importersDone.increment() }
                    for batch in 0..<Self.maximumImportsPerImporter where Date() < deadline {
                        let file = directory.appendingPathComponent("load-\(worker)-\(batch).csv").path
                        try writeProductsCSV(to: file, count: Self.rowsPerImport, prefix: "Load \(worker) \(batch)", type: "load")
                        try imports.record(worker: worker) {
                            let result = try ChildProcess(["import", "products", file], database: url).wait()
                            if result.status == 0 {
                                completed.append(file)
                            } else {
                                fail("importer \(worker) batch \(batch): exit \(result.status): \(result.error)")
                            }
                        }
                        try? FileManager.default.removeItem(atPath: file)
                    }
                } else {
                    for _ in 0..<Self.maximumSearchesPerSearcher where importersDone.value < Self.importers {
                        let result = try ChildProcess(["search", "Load", "--entity", "products", "--limit", "1"], database: url).wait()
                        guard result.status == 0, let last = result.output.split(separator: "\n").last else {
                            fail("searcher \(worker): exit \(result.status): \(result.error)")
                            continue
                        }
                        counts.append(String(last))
                    }
                }
            } catch {
                otherErrors.append("worker \(worker): \(error)")
            }
        }
        let imported = completed.values.count
        let total = imported * Self.rowsPerImport
        var seen: [Int] = []
        for line in counts.values {
            let count = SearchSummaryLine.total(of: line)
            seen.append(count)
            #expect(count >= 0 && count % Self.rowsPerImport == 0, "a searcher saw part of an import: \(line)")
        }
        #expect(lockErrors.values.isEmpty, "\(lockErrors.values.count) lock errors: \(lockErrors.values.prefix(3))")
        #expect(otherErrors.values.isEmpty, "\(otherErrors.values.count) other errors: \(otherErrors.values.prefix(3))")
        #expect(try database.psql("SELECT count(*) FROM product WHERE type = 'load'") == "\(total)\n")
        #expect(try database.psql("SELECT count(DISTINCT name) FROM product WHERE type = 'load'") == "\(total)\n")
        #expect(imports.count == imported + lockErrors.values.count + otherErrors.values.filter { $0.hasPrefix("importer") }.count)
        #expect(imports.overlappingPairs > 0, "the importers never ran at the same time")
        #expect(seen.contains { $0 > 0 && $0 < total }, "no search ran while the imports did")
        print("concurrent load (postgres): \(Self.importers) importers, \(Self.searchers) searchers, \(Int(Self.seconds)) s: \(imported) imports of \(Self.rowsPerImport) rows (\(total) rows, exact), \(counts.values.count) searches (\(Set(seen).count) distinct counts), \(imports.overlappingPairs) overlapping import pairs, \(lockErrors.values.count) lock errors, \(otherErrors.values.count) other errors")
        try database.drop()
    }
}
#endif
