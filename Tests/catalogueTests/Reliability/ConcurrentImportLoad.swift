import Foundation

/// Importer and searcher processes of the built binary on one database at once, for a while
/// (the load of ``ConcurrentLoadTests`` on SQLite and `PostgresConcurrentLoadTests` on
/// PostgreSQL): each importer imports files of `rowsPerImport` "load" products until the
/// deadline, each searcher counts them (`search Load`) until every importer is done. Loops are
/// bounded, so a regression cannot spin forever. The caller asserts on the ``Outcome``.
struct ConcurrentImportLoad {
    var importers = 4
    var searchers = 8
    var seconds = 30.0
    var rowsPerImport = 500
    var maximumImportsPerImporter = 400
    var maximumSearchesPerSearcher = 2_000
    /// Whether an error message is a lock error (the engine's words for one).
    let isLockError: @Sendable (String) -> Bool

    /// What the run did.
    struct Outcome {
        let imported: Int
        let total: Int
        let searchLines: [String]
        /// The count each search printed, in order.
        let seen: [Int]
        let lockErrors: [String]
        let otherErrors: [String]
        let imports: IntervalLog

        /// Imports started: those that landed and those that failed.
        var importsAccountedFor: Int {
            imported + lockErrors.count + otherErrors.filter { $0.hasPrefix("importer") }.count
        }
    }

    /// Runs the load on `database` (a path or a URL, as `CATALOGUE_DB`), with files in `directory`.
    func run(database: String, directory: URL) -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        let importersDone = SharedFlag()
        let lockErrors = LockedStrings()
        let otherErrors = LockedStrings()
        let completed = LockedStrings()
        let counts = LockedStrings()
        let imports = IntervalLog()
        let load = self
        runThreads(importers + searchers) { worker in
            func fail(_ message: String) {
                if load.isLockError(message) {
                    lockErrors.append(message)
                } else {
                    otherErrors.append(message)
                }
            }
            do {
                if worker < load.importers {
                    defer { importersDone.increment() }
                    for batch in 0..<load.maximumImportsPerImporter where Date() < deadline {
                        let file = directory.appendingPathComponent("load-\(worker)-\(batch).csv").path
                        try writeProductsCSV(to: file, count: load.rowsPerImport, prefix: "Load \(worker) \(batch)", type: "load")
                        try imports.record(worker: worker) {
                            let result = try ChildProcess(["import", "products", file], database: database).wait()
                            if result.status == 0 {
                                completed.append(file)
                            } else {
                                fail("importer \(worker) batch \(batch): exit \(result.status): \(result.error)")
                            }
                        }
                        try? FileManager.default.removeItem(atPath: file)
                    }
                } else {
                    for _ in 0..<load.maximumSearchesPerSearcher where importersDone.value < load.importers {
                        let result = try ChildProcess(["search", "Load", "--entity", "products", "--limit", "1", "--count", "exact"], database: database).wait()
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
        return Outcome(
            imported: imported, total: imported * rowsPerImport, searchLines: counts.values,
            seen: counts.values.map(SearchSummaryLine.total(of:)), lockErrors: lockErrors.values,
            otherErrors: otherErrors.values, imports: imports)
    }
}
