import Foundation
import PostgresTestSupport
import Testing

/// First use of a database path is atomic (issue 13, item 4): processes starting at once on a
/// missing file all succeed, and a creation killed half-way leaves nothing or a whole
/// catalogue, never a file every command refuses.
@Suite("First use (the built binary)", .serialized)
struct FirstUseTests {
    static let rounds = 10
    static let processesPerRound = 12

    /// How many migrations a whole catalogue has applied: the SQL files in `migrations/`.
    static let migrationCount: Int = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("migrations").path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.count
    }()

    /// Checks that `path` holds a whole, seeded catalogue.
    static func expectWholeCatalogue(_ path: String, _ comment: String) throws {
        #expect(try sqliteValue(path, "PRAGMA integrity_check") == "ok", "\(comment)")
        #expect(try sqliteValue(path, "SELECT count(*) FROM country") == "250", "\(comment)")
        #expect(try sqliteValue(path, "SELECT count(*) FROM catalogue_migrations") == "\(migrationCount)", "\(comment)")
        #expect(try sqliteValue(path, "SELECT count(*) FROM catalogue_info WHERE key = 'seeded_at'") == "1", "\(comment)")
    }

    /// The names in `directory` that are not the database or its WAL files.
    static func strayFiles(in directory: URL, database: String) throws -> [String] {
        let name = URL(fileURLWithPath: database).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { ![name, name + "-wal", name + "-shm"].contains($0) }
    }

    @Test("12 processes at once on a missing file, 10 times: every one succeeds")
    func concurrentFirstUse() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let directory = runner.directory.appendingPathComponent("first-use")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("new.sqlite").path
            var failures: [String] = []
            var succeeded = 0
            for round in 0..<Self.rounds {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                let children = try (0..<Self.processesPerRound).map { _ in
                    try ChildProcess(["search", "co", "--db", path], database: path)
                }
                for child in children {
                    let result = child.wait()
                    if result.status == 0, result.output.hasSuffix("15 items found\n") {
                        succeeded += 1
                    } else {
                        failures.append("round \(round): exit \(result.status): \(result.error)")
                    }
                }
                try Self.expectWholeCatalogue(path, "round \(round)")
                let stray = try Self.strayFiles(in: directory, database: path)
                #expect(stray.isEmpty, "round \(round): \(stray)")
            }
            #expect(failures.isEmpty, "\(failures.count) failed: \(Set(failures.map { $0.drop(while: { $0 != ":" }) }))")
            print("first use: \(succeeded) of \(Self.rounds * Self.processesPerRound) processes started in rounds of \(Self.processesPerRound) on a missing file succeeded")
        }
    }

    @Test("SIGKILL during first use, 20 times: nothing or a whole catalogue, and the next command succeeds")
    func killDuringCreation() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let directory = runner.directory.appendingPathComponent("killed")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("new.sqlite").path
            // How long a first use takes here, to spread the kills over it; shortened whenever a
            // process finishes before its kill (the machine's load changes).
            let start = Date()
            let timed = try ChildProcess(["search", "co", "--db", path], database: path).wait()
            try #require(timed.status == 0, "\(timed.error)")
            let duration = Date().timeIntervalSince(start)
            var schedule = KillSchedule(runTime: duration)
            var landed = 0
            var attempts = 0
            var outcomes = (nothing: 0, whole: 0)
            // Until 20 kills have reached a running process (at most 60 tries).
            for trial in 0..<60 where landed < 20 {
                attempts += 1
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                let child = try ChildProcess(["search", "co", "--db", path], database: path)
                let moment = schedule.waitForMoment(of: child)
                child.kill()
                let outcome = child.waitForOutcome()
                if outcome.killedBySignal, outcome.status == SIGKILL {
                    landed += 1
                } else {
                    #expect(outcome.status == 0, "trial \(trial): \(outcome.error)")
                    schedule.processFinishedFirst(moment)
                }
                if FileManager.default.fileExists(atPath: path) {
                    outcomes.whole += 1
                    try Self.expectWholeCatalogue(path, "trial \(trial)")
                } else {
                    outcomes.nothing += 1
                }
                let next = try runner.run(["search", "co", "--db", path])
                #expect(next.status == 0, "trial \(trial): \(next.standardError)")
                #expect(next.standardOutput.hasSuffix("15 items found\n"), "trial \(trial)")
                let stray = try Self.strayFiles(in: directory, database: path)
                #expect(stray.isEmpty, "trial \(trial): a killed creation left \(stray)")
            }
            print("first use killed: \(landed) of \(attempts) SIGKILLs landed during a first use (\(String(format: "%.2f", duration)) s when timed); \(outcomes.nothing) left nothing, \(outcomes.whole) a whole catalogue")
            #expect(landed == 20, "only \(landed) of \(attempts) kills reached a running process")
            #expect(outcomes.nothing > 0, "no kill landed before the catalogue was in place")
        }
    }
}
