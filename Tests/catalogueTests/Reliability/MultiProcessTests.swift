import Foundation
import Synchronization
import Testing

/// Several processes at once on one database: 2 importers and 4 searchers. No "database is
/// locked" reaches a user, searchers never see half an import, and the final count is exact.
@Suite("Concurrent processes (the built binary)", .serialized)
struct MultiProcessTests {
    static let importsPerImporter = 6
    static let rowsPerImport = 2_000

    @Test("2 importers and 4 searchers at once")
    func importersAndSearchers() throws {
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
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            do {
                if worker < 2 {
                    defer { importersDone.increment() }
                    for file in files[worker] {
                        let result = try ChildProcess(["import", "products", file], database: database).wait()
                        if result.status != 0 { failures.append("importer \(worker): \(result.error)") }
                    }
                } else {
                    repeat {
                        let result = try ChildProcess(
                            ["search", "", "--entity", "products", "--scope", "loadtest", "--limit", "1"], database: database).wait()
                        if result.status != 0 {
                            // Before the first import the type does not exist yet: that is a usage error, not a lock.
                            if !result.error.contains("unknown product type") { failures.append("searcher \(worker): \(result.error)") }
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
        for line in counts.values {
            // "No items found", "2,000 items found", or (cut by --limit) "1 of 2,000 shown (…)".
            let words = line.split(separator: " ")
            let total = words.count > 2 && words[1] == "of" ? words[2] : words.first ?? ""
            let count = line == "No items found" ? 0 : Int(total.replacingOccurrences(of: ",", with: "")) ?? -1
            #expect(count % Self.rowsPerImport == 0, "a searcher saw \(line)")
        }
        #expect(counts.values.count >= 4)
        let total = Int(try sqliteValue(database, "SELECT count(*) FROM product WHERE type = 'loadtest'")) ?? -1
        #expect(total == 2 * Self.importsPerImporter * Self.rowsPerImport)
        #expect(try sqliteValue(database, "PRAGMA integrity_check") == "ok")
        print("concurrent processes: 2 importers × \(Self.importsPerImporter) imports, 4 searchers, \(counts.values.count) searches, \(total) rows")
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
