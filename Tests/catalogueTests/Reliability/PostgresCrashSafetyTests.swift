#if PostgreSQL
import Foundation
import PostgresTestSupport
import Testing

/// `catalogue import --db postgres://…` interrupted at random moments (issue 10, item 5): the
/// importing client killed with SIGKILL, or the server stopped as a crash would (`pg_ctl stop
/// -m immediate`, then restarted). Every trial imports into its own copy of a seeded database
/// and must leave it holding either none of the import or all of it, row for row (a checksum
/// of every row of every catalogue table), and an import that reported success must survive.
///
/// The issue's figures are 300,000 rows and 10 trials of each kind (a few minutes here):
/// `scripts/postgres-reliability-figures.sh` runs that. A plain `swift test --traits PostgreSQL`
/// runs a smaller but real version (`CATALOGUE_PG_CRASH_ROWS`, default 20,000, and
/// `CATALOGUE_PG_CRASH_TRIALS`, default 5), so CI stays quick; both print a figure line
/// ("crash safety (postgres, …): …") and one line per trial.
@Suite("Crash safety on PostgreSQL (the built binary)", .serialized, .requiresPostgres)
struct PostgresCrashSafetyTests {
    static let rows = PostgresCrashSafetyTests.setting("CATALOGUE_PG_CRASH_ROWS", default: 20_000)
    /// Kills that must reach a running import, of each kind.
    static let trials = PostgresCrashSafetyTests.setting("CATALOGUE_PG_CRASH_TRIALS", default: 5)
    /// At most this many imports are started to get them (a kill after the import exited does
    /// not count).
    static var maximumAttempts: Int { trials * 3 }

    static func setting(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? value
    }

    /// What is killed during the import.
    enum Kill: String {
        case client = "client kill -9"
        case server = "server stop -m immediate"
    }

    @Test("SIGKILL of the importing client: all or nothing, nothing lost", .timeLimit(.minutes(30)))
    func clientKilled() async throws {
        try await onOwnThread {
            try run(.client, on: PostgresTestServer.shared())
        }
    }

    @Test("The server stopped immediately during an import, then restarted: all or nothing, nothing lost", .timeLimit(.minutes(30)))
    func serverKilled() async throws {
        try await onOwnThread {
            // A server of its own: stopping the shared one would break the tests running beside.
            let server = try PostgresTestServer.start()
            defer { try? server.stop() }
            // An acknowledged commit must survive the crash (the test server's default,
            // synchronous_commit = off, may lose the last ones).
            try server.psql("ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf();")
            try run(.server, on: server)
        }
    }

    private func run(_ kill: Kill, on server: PostgresTestServer) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let csv = runner.directory.appendingPathComponent("big.csv").path
        try writeProductsCSV(to: csv, count: Self.rows, prefix: "Crash test item", type: "crashtest")

        // A seeded catalogue every trial starts from a copy of.
        let baseline = try server.createDatabase(prefix: "crash_baseline")
        let seeded = try ChildProcess(["search", "x"], database: baseline.url).wait()
        try #require(seeded.status == 0, "\(seeded.error)")
        try #require(try baseline.waitForNoSessions())
        let before = try PostgresCatalogueState(baseline)

        // How long a whole import takes here, to spread the kills over it, and the state every
        // import that lands must leave (same ids: each copy starts from the baseline's sequence).
        let reference = try server.createDatabase(prefix: "crash_reference", template: baseline.name)
        let start = Date()
        let complete = try ChildProcess(["import", "products", csv], database: reference.url).wait()
        let duration = Date().timeIntervalSince(start)
        try #require(complete.status == 0, "\(complete.error)")
        try #require(try reference.waitForNoSessions())
        let after = try PostgresCatalogueState(reference)
        try #require(after.products == before.products + Self.rows, "the reference import did not import every row: \(after)")
        try reference.drop()

        var outcomes = (none: 0, all: 0)
        // Kills that reached a running import (the others came after it had exited).
        var killed = (none: 0, all: 0)
        var trialLines: [String] = []
        var attempts = 0
        var schedule = KillSchedule(runTime: duration)
        for trial in 0..<Self.maximumAttempts where killed.none + killed.all < Self.trials {
            attempts += 1
            let database = try server.createDatabase(prefix: "crash_trial", template: baseline.name)
            let child = try ChildProcess(["import", "products", csv], database: database.url)
            let moment = schedule.waitForMoment(of: child)
            let reachedRunningImport: Bool
            let outcome: ChildProcess.Outcome
            switch kill {
            case .client:
                child.kill()
                outcome = child.waitForOutcome()
                reachedRunningImport = outcome.killedBySignal && outcome.status == SIGKILL
            case .server:
                try server.stopImmediately()
                outcome = child.waitForOutcome()
                // The client lost its server before it had finished (an import that finished
                // first exits 0).
                reachedRunningImport = moment.wasRunning && outcome.status != 0
                // Losing its server is an error the client reports in one line, not a crash
                // (before: libdispatch trapped on the COPY's semaphore, SIGILL).
                if outcome.status != 0 {
                    let exit = "\(outcome.killedBySignal ? "signal" : "status") \(outcome.status)"
                    #expect(!outcome.killedBySignal && outcome.status == 1,
                            "trial \(trial): the import ended with \(exit): \(outcome.error.prefix(2_000))")
                    #expect(outcome.error.hasPrefix("catalogue: error: ") && outcome.error.filter { $0 == "\n" }.count == 1
                                && outcome.error.contains("@127.0.0.1:\(server.port)/"),
                            "trial \(trial): not one error line naming the server: \(outcome.error.prefix(2_000))")
                }
                try server.restart()
            }
            if !reachedRunningImport {
                #expect(outcome.status == 0, "trial \(trial): the import failed before the kill: \(outcome.error)")
                schedule.processFinishedFirst(moment)
            }

            // A killed client's server process may still be finishing its transaction.
            #expect(try database.waitForNoSessions(), "trial \(trial): sessions still open")
            let state = try PostgresCatalogueState(database)
            let landed: Bool? = state == before ? false : (state == after ? true : nil)
            #expect(landed != nil, "trial \(trial) after \(moment.delay) s: neither the old nor the new catalogue: \(state)")
            if outcome.status == 0 {
                #expect(landed == true, "trial \(trial): an import that reported success was lost")
            }
            if landed == false { outcomes.none += 1 } else if landed == true { outcomes.all += 1 }
            if reachedRunningImport {
                if landed == false { killed.none += 1 } else if landed == true { killed.all += 1 }
            }
            let ending = landed.map { $0 ? "all new" : "all old" } ?? "neither"
            trialLines.append("\(trial): \(String(format: "%.2f", moment.delay)) s, \(reachedRunningImport ? "running" : "exited (after \(String(format: "%.2f", moment.runTime)) s)"), \(ending)")
            try database.drop()
        }
        try baseline.drop()
        let landed = killed.none + killed.all
        print("crash safety (postgres, \(kill.rawValue)): \(attempts) kills over \(String(format: "%.2f", duration)) s imports of \(Self.rows) rows: \(landed) reached a running import (\(killed.none) left nothing, \(killed.all) everything), \(attempts - landed) came after it had exited; in all \(outcomes.none) left nothing, \(outcomes.all) everything, \(attempts - outcomes.none - outcomes.all) anything else")
        print("crash safety (postgres, \(kill.rawValue)) trials: " + trialLines.joined(separator: "; "))
        #expect(outcomes.none > 0, "no kill landed before the commit; the test did not test anything")
        #expect(landed == Self.trials, "only \(landed) of \(attempts) kills reached a running import")
    }
}
#endif
