import CatalogueTestSupport
import Foundation
import PostgresTestSupport
import Testing

/// Writers wait for each other (issue 13, item 1): a second import waits for the first however
/// long it takes, `--wait-timeout` limits the wait, a terminal shows why nothing moves, and
/// readers never wait.
@Suite("Writers wait (the built binary)", .serialized)
struct WriterWaitTests {
    /// A catalogue and a one-product CSV.
    static func prepare(_ runner: CommandRunner) throws -> String {
        try #require(try runner.run(["search", "x"]).status == 0)
        let file = runner.directory.appendingPathComponent("one.csv").path
        try "name,type\nPatient writer,waiting\n".write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("An import waits for another writer past the old 5-second limit, then lands")
    func secondWriterWaits() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let file = try Self.prepare(runner)
            let holder = try WriteLockHolder(runner.databasePath)
            let importer = try ChildProcess(["import", "products", file], database: runner.databasePath)
            // Longer than SQLite's busy timeout of 5 s, after which the import used to give up.
            Thread.sleep(forTimeInterval: 6.5)
            #expect(importer.process.isRunning, "the import did not wait for the writer")
            // Readers never wait for the writer.
            let reader = try runner.run(["search", "bog", "--scope", "capital", "--format", "json"])
            #expect(reader.status == 0, "\(reader.standardError)")
            #expect(try reader.jsonNames() == ["Colombia"])
            try holder.commit()
            let result = importer.wait()
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.hasPrefix("Imported 1 product (1 added"), "\(result.output)")
            #expect(!result.error.contains("waiting"), "the waiting line is for terminals only: \(result.error)")
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'waiting'") == "1")
            #expect(try sqliteValue(runner.databasePath, "SELECT value FROM catalogue_info WHERE key = 'lock holder'") == "x")
        }
    }

    @Test("--wait-timeout gives up after that many seconds with one line, and writes nothing")
    func waitTimeout() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let file = try Self.prepare(runner)
            let holder = try WriteLockHolder(runner.databasePath)
            let result = try runner.run(["import", "products", file, "--wait-timeout", "1"])
            try holder.commit()
            #expect(result.status == 1)
            #expect(result.standardError ==
                "catalogue: error: \(runner.databasePath) is locked by another process writing to it; gave up waiting after 1 s (--wait-timeout sets how long to wait)\n")
            #expect(result.standardOutput.isEmpty)
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'waiting'") == "0")
            let bad = try runner.run(["import", "products", file, "--wait-timeout=-1"])
            #expect(bad.status == 2)
            #expect(bad.standardError.hasPrefix("catalogue: error: --wait-timeout must be a number of seconds"), "\(bad.standardError)")
        }
    }

    @Test("--wait-timeout also limits the wait for another first import of a path with no file yet")
    func firstImportWaitTimeout() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let file = runner.directory.appendingPathComponent("one.csv").path
            try "name,type\nPatient writer,waiting\n".write(toFile: file, atomically: true, encoding: .utf8)
            // The test holds the temporary file's lock, as a first import running elsewhere does.
            let importing = try CreationLockHolder(catalogueAt: runner.databasePath)
            let result = try runner.run(["import", "products", file, "--wait-timeout", "1"])
            #expect(result.status == 1)
            #expect(result.standardError ==
                "catalogue: error: \(runner.databasePath) is locked by another process writing to it; gave up waiting after 1 s (--wait-timeout sets how long to wait)\n")
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
            #expect(FileManager.default.fileExists(atPath: importing.temporaryPath), "the other import's file is left alone")
            // That import ends without a catalogue: the next import creates it.
            importing.release()
            let again = try runner.run(["import", "products", file])
            #expect(again.status == 0, "\(again.standardError)")
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'waiting'") == "1")
            let left = try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("The interactive mode waits for another process's first import up to its own 5 s, and says so without naming an option it lacks")
    func interactiveWaitLimit() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let importing = try CreationLockHolder(catalogueAt: runner.databasePath)
            defer { importing.release() }
            // `script` gives the interactive mode the terminal it requires.
            let command = "TERM=xterm \(CommandRunner.executable.path) interactive --db \(runner.databasePath)"
            let result = try runner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
            #expect(result.status == 1)
            let lines = result.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines == [
                "catalogue: waiting for another process to finish creating \(runner.databasePath)…",
                "catalogue: error: \(runner.databasePath) is locked by another process writing to it; gave up waiting after 5 s",
            ])
            #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
        }
    }

    @Test("On a terminal, a waiting import says so: \"waiting for another import to finish…\"")
    func waitingLineOnTerminal() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let file = try Self.prepare(runner)
            let holder = try WriteLockHolder(runner.databasePath)
            // `script` gives the import a pseudo-terminal for its stdout and stderr.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = "'\(CommandRunner.executable.path)' import products '\(file)' --db '\(runner.databasePath)'"
            process.arguments = ["-qfec", command, "/dev/null"]
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: 1.5)
            try holder.commit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.contains("waiting for another import to finish…"), "\(text)")
            #expect(text.contains("Imported 1 product"), "\(text)")
        }
    }
}
