import Foundation
import PostgresTestSupport
import Testing

/// Finding the server programs, and what happens where they are missing: a skip with the reason
/// and the install line, except under CI, where the tests run (and fail).
@Suite("PostgresBinaries")
struct PostgresBinariesTests {
    @Test("Without the programs, the reason names where it looked and the apt-get line")
    func missingBinaries() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }

        let availability = PostgresBinaries.locate(environment: [:], debianRoot: empty.path)
        guard case .missing(let reason) = availability else {
            Issue.record("found PostgreSQL in an empty directory")
            return
        }
        #expect(reason.contains("\(empty.path)/*/bin"))
        #expect(reason.hasSuffix("apt-get install postgresql postgresql-contrib"))

        let overridden = PostgresBinaries.locate(environment: ["CATALOGUE_POSTGRES_BIN": empty.path])
        #expect(overridden == .missing(
            "PostgreSQL server programs (initdb, pg_ctl, postgres, psql) not found in \(empty.path): apt-get install postgresql postgresql-contrib"))
    }

    @Test("Missing PostgreSQL skips the tests, except under CI")
    func ciTurnsSkipsIntoFailures() throws {
        let missing = PostgresBinaries.Availability.missing("not here: apt-get install postgresql postgresql-contrib")
        #expect(!PostgresTestServer.testsShouldRun(availability: missing, environment: [:]))
        #expect(!PostgresTestServer.testsShouldRun(availability: missing, environment: ["CI": ""]))
        #expect(PostgresTestServer.testsShouldRun(availability: missing, environment: ["CI": "true"]))
        let found = PostgresBinaries(directory: URL(fileURLWithPath: "/usr/lib/postgresql/15/bin"), majorVersion: 15)
        #expect(PostgresTestServer.testsShouldRun(availability: .available(found), environment: [:]))
    }

    @Test("The programs found run", .requiresPostgres)
    func foundProgramsRun() throws {
        guard case .available(let binaries) = PostgresTestServer.availability else {
            Issue.record("PostgreSQL not found: \(PostgresTestServer.skipReason ?? "")")
            return
        }
        for program in PostgresBinaries.requiredPrograms {
            #expect(FileManager.default.isExecutableFile(atPath: binaries.path(of: program)))
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: binaries.path(of: "postgres"))
        process.arguments = ["--version"]
        process.standardOutput = output
        try process.run()
        let version = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(version.hasPrefix("postgres (PostgreSQL) "))
    }
}
