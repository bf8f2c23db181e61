import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// Several processes at once on one database: 2 importers and 4 searchers, started together
/// behind a barrier on their own threads. No "database is locked" reaches a user, searchers
/// never see half an import, the final count is exact, and the work provably overlapped: the
/// importers' imports ran at the same time (so one waited for the other's lock) and a
/// searcher saw a count between the first and the last.
@Suite("Concurrent processes (the built binary)", .serialized)
struct MultiProcessTests {
    static let importsPerImporter = 6
    static let rowsPerImport = 2_000

    @Test("2 importers and 4 searchers at once")
    func importersAndSearchers() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = runner.databasePath
            try #require(try runner.run(["search", "x"]).status == 0)

            let files: [[String]] = try (0..<2).map { importer in
                try (0..<Self.importsPerImporter).map { batch in
                    let path = runner.directory.appendingPathComponent("import-\(importer)-\(batch).csv").path
                    try writeProductsCSV(to: path, count: Self.rowsPerImport, prefix: "Load \(importer) \(batch)", type: "loadtest")
                    return path
                }
            }

            let importersDone = SharedFlag()
            let failures = LockedStrings()
            let counts = LockedStrings()
            let imports = IntervalLog()
            runThreads(6) { worker in
                do {
                    if worker < 2 {
                        defer { importersDone.increment() }
                        for file in files[worker] {
                            try imports.record(worker: worker) {
                                let result = try ChildProcess(["import", "products", file], database: database).wait()
                                if result.status != 0 { failures.append("importer \(worker): \(result.error)") }
                            }
                        }
                    } else {
                        repeat {
                            let result = try ChildProcess(
                                ["search", "Load", "--entity", "products", "--limit", "1", "--count", "exact"], database: database).wait()
                            if result.status != 0 {
                                failures.append("searcher \(worker): \(result.error)")
                                continue
                            }
                            if let last = result.output.split(separator: "\n").last { counts.append(String(last)) }
                        } while importersDone.value < 2
                    }
                } catch {
                    failures.append("worker \(worker): \(error)")
                }
            }
            #expect(failures.values.isEmpty, "\(failures.values)")
            #expect(!failures.values.contains { $0.contains("locked") || $0.contains("busy") })
            let total = 2 * Self.importsPerImporter * Self.rowsPerImport
            var seen: [Int] = []
            for line in counts.values {
                let count = SearchSummaryLine.total(of: line)
                seen.append(count)
                #expect(count % Self.rowsPerImport == 0, "a searcher saw \(line)")
            }
            #expect(counts.values.count >= 4)
            #expect(seen.contains { $0 > 0 && $0 < total }, "no searcher ran while the imports did: \(Set(seen).sorted())")
            #expect(imports.overlappingPairs > 0, "the two importers never ran at the same time")
            #expect(try sqliteValue(database, "SELECT count(*) FROM product WHERE type = 'loadtest'") == "\(total)")
            #expect(try sqliteValue(database, "PRAGMA integrity_check") == "ok")
            print("concurrent processes: 2 importers × \(Self.importsPerImporter) imports, 4 searchers, \(counts.values.count) searches (\(Set(seen).count) distinct counts), \(imports.overlappingPairs) overlapping import pairs, \(total) rows")
        }
    }
}

/// A counter several threads share.
final class SharedFlag: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Strings several threads append to.
final class LockedStrings: Sendable {
    private let items = Mutex<[String]>([])
    var values: [String] { items.withLock { $0 } }
    func append(_ item: String) { items.withLock { $0.append(item) } }
}
