import Foundation
import PostgresTestSupport
import Testing

/// An import that fills the disk fails with one clear error and leaves the database as it was.
@Suite("Full disk (the built binary)", .serialized)
struct FullDiskTests {
    /// Runs `command` through bash and returns its status and stderr.
    static func bash(_ command: String, environment: [String: String] = [:]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        let data = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("Import onto a full disk: one error line, non-zero exit, database unchanged")
    func importOntoFullDisk() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let csv = runner.directory.appendingPathComponent("big.csv").path
            try writeProductsCSV(to: csv, count: 80_000, prefix: "Disk filler", type: "filler")

            // A small filesystem: a 4 MB tmpfs as root; otherwise a file-size limit (ulimit -f) on
            // the importing process, with SIGXFSZ ignored so the write fails instead of killing it.
            let mount = runner.directory.appendingPathComponent("small")
            try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
            let mounted = try getuid() == 0 && Self.bash("mount -t tmpfs -o size=4m tmpfs '\(mount.path)'").status == 0
            defer { if mounted { _ = try? Self.bash("umount '\(mount.path)'") } }
            let database = mount.appendingPathComponent("catalogue.sqlite").path
            try #require(try runner.run(["search", "x", "--db", database]).status == 0)
            _ = try sqliteValue(database, "PRAGMA wal_checkpoint(TRUNCATE)")
            let checksum = try sqliteValue(database, "SELECT count(*), total(length(name)), total(price) FROM product")
            // Every row of every table, not only totals that a changed row could leave equal.
            let rows = try catalogueChecksum(database)

            let limit = mounted ? "" : "ulimit -f 4096; trap '' XFSZ; "
            let result = try Self.bash(
                "\(limit)exec '\(CommandRunner.executable.path)' import products '\(csv)' --db '\(database)'",
                environment: ["HOME": runner.directory.path])
            #expect(result.status == 1, "\(result.error)")
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(result.error)")
            #expect(lines.first?.hasPrefix("catalogue: error: ") == true, "\(result.error)")
            #expect(result.error.contains("full") || result.error.contains("I/O"), "\(result.error)")
            #expect(try sqliteValue(database, "PRAGMA integrity_check") == "ok")
            #expect(try sqliteValue(database, "SELECT count(*), total(length(name)), total(price) FROM product") == checksum)
            #expect(try catalogueChecksum(database) == rows)
            print("full disk: \(mounted ? "4 MB tmpfs" : "ulimit -f 4096"): \(lines.first ?? "")")
        }
    }

    @Test("An export to a file that cannot be written whole: one error line, the old file kept, no temporary file left")
    func exportOntoFullDisk() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            #expect(try runner.run(["search", "x"]).status == 0)
            let path = runner.directory.appendingPathComponent("countries.json").path
            try "old".write(toFile: path, atomically: true, encoding: .utf8)
            // 64 KiB at most per file (ulimit -f counts 1 KiB blocks in bash); the export is about 118 KiB.
            let result = try Self.bash(
                "ulimit -f 64; trap '' XFSZ; exec '\(CommandRunner.executable.path)' export countries '\(path)'",
                environment: ["CATALOGUE_DB": runner.databasePath, "HOME": runner.directory.path])
            #expect(result.status == 1)
            #expect(result.error == "catalogue: error: cannot write \(path): File too large\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
            let left = try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).filter { $0.contains(".exporting-") }
            #expect(left.isEmpty, "\(left)")
        }
    }
}
