import Foundation
import PostgresTestSupport
import Testing

/// `catalogue import` killed with SIGKILL at random moments: the database stays intact and holds
/// either all of the import or none of it.
@Suite("Crash safety (the built binary)", .serialized)
struct CrashSafetyTests {
    static let rows = 30_000
    /// Kills that must reach a running import.
    static let trials = 20
    /// At most this many imports are started to get them (a kill after the import exited does
    /// not count).
    static let maximumAttempts = 60

    @Test("SIGKILL during an import, 20 times: integrity_check ok, FTS consistent, all or nothing")
    func killDuringImport() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("big.csv").path
            try writeProductsCSV(to: csv, count: Self.rows, prefix: "Crash test item", type: "crashtest")
            let baseline = runner.directory.appendingPathComponent("baseline.sqlite").path
            try #require(try runner.run(["search", "x", "--db", baseline]).status == 0)
            let before = Int(try sqliteValue(baseline, "SELECT count(*) FROM product")) ?? -1

            // How long a whole import takes here, to spread the kills over it.
            let timed = runner.directory.appendingPathComponent("timed.sqlite").path
            try FileManager.default.copyItem(atPath: baseline, toPath: timed)
            let start = Date()
            let complete = try ChildProcess(["import", "products", csv], database: timed).wait()
            try #require(complete.status == 0, "\(complete.error)")
            let duration = Date().timeIntervalSince(start)
            // The import the kills interrupt really imports every row.
            #expect(try sqliteValue(timed, "SELECT count(*) FROM product WHERE type = 'crashtest'") == "\(Self.rows)")

            var outcomes = (none: 0, all: 0)
            // Kills that reached a running import (the others came after it had exited).
            var killed = (none: 0, all: 0)
            var attempts = 0
            var schedule = KillSchedule(runTime: duration)
            for trial in 0..<Self.maximumAttempts where killed.none + killed.all < Self.trials {
                attempts += 1
                let path = runner.directory.appendingPathComponent("trial-\(trial).sqlite").path
                try FileManager.default.copyItem(atPath: baseline, toPath: path)
                let child = try ChildProcess(["import", "products", csv], database: path)
                let moment = schedule.waitForMoment(of: child)
                child.kill()
                let outcome = child.waitForOutcome()
                let reachedRunningImport = outcome.killedBySignal && outcome.status == SIGKILL
                if !reachedRunningImport {
                    #expect(outcome.status == 0, "trial \(trial): the import failed before the kill: \(outcome.error)")
                    schedule.processFinishedFirst(moment)
                }

                #expect(try sqliteValue(path, "PRAGMA integrity_check") == "ok", "trial \(trial) after \(moment.delay) s")
                #expect(try sqliteValue(path, "INSERT INTO product_fts (product_fts) VALUES ('integrity-check'); "
                        + "INSERT INTO product_name_key_trigram (product_name_key_trigram) VALUES ('integrity-check'); SELECT 'fts ok';") == "fts ok",
                        "trial \(trial)")
                let count = Int(try sqliteValue(path, "SELECT count(*) FROM product")) ?? -1
                let imported = Int(try sqliteValue(path, "SELECT count(*) FROM product WHERE type = 'crashtest'")) ?? -1
                let ftsCount = Int(try sqliteValue(path, "SELECT count(*) FROM product_fts WHERE product_fts MATCH 'crash'")) ?? -1
                #expect(imported == 0 || imported == Self.rows, "trial \(trial): a partial import of \(imported) rows survived")
                #expect(count == before + imported, "trial \(trial)")
                #expect(ftsCount == imported, "trial \(trial): the FTS index disagrees with the table")
                if imported == 0 { outcomes.none += 1 } else { outcomes.all += 1 }
                if reachedRunningImport {
                    if imported == 0 { killed.none += 1 } else { killed.all += 1 }
                }
                try? FileManager.default.removeItem(atPath: path)
            }
            let landed = killed.none + killed.all
            print("crash safety: \(attempts) SIGKILLs over \(String(format: "%.2f", duration)) s imports: \(landed) reached a running import (\(killed.none) left nothing, \(killed.all) everything), \(attempts - landed) came after it had exited; in all \(outcomes.none) left nothing, \(outcomes.all) everything")
            #expect(outcomes.none > 0, "no kill landed before the commit; the test did not test anything")
            #expect(landed == Self.trials, "only \(landed) of \(attempts) kills reached a running import")
        }
    }
}
