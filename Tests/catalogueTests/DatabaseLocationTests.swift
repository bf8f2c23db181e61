import CatalogueTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the binary puts its database: `--db` before or after the subcommand, missing
/// directories created only for the default location, a new catalogue announced on a terminal.
@Suite("catalogue --db and the default location (the built binary)")
struct DatabaseLocationTests {
    @Test("--db is accepted before and after the subcommand, and beats CATALOGUE_DB")
    func dbBeforeOrAfter() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let before = runner.directory.appendingPathComponent("before.sqlite").path
        let after = runner.directory.appendingPathComponent("after.sqlite").path
        let first = try runner.run(["--db", before, "search", "bog", "--scope", "capital", "--format", "json"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try first.jsonNames() == ["Colombia"])
        let second = try runner.run(["search", "bog", "--scope", "capital", "--db", after, "--format", "json"])
        #expect(second.status == 0, "\(second.standardError)")
        let equals = try runner.run(["--db=\(before)", "index"])
        #expect(equals.status == 0, "\(equals.standardError)")
        #expect(FileManager.default.fileExists(atPath: before))
        #expect(FileManager.default.fileExists(atPath: after))
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
        // Before the subcommand, for every subcommand; after it, the subcommand's own wins.
        for arguments in [["browse", "--section", "Y"], ["show", "CO"], ["export", "products"]] {
            let result = try runner.run(["--db", before] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let both = try runner.run(["--db", runner.directory.appendingPathComponent("unused.sqlite").path, "search", "x", "--db", before])
        #expect(both.status == 0)
        #expect(!FileManager.default.fileExists(atPath: runner.directory.appendingPathComponent("unused.sqlite").path))
    }

    @Test("An explicit path in a missing directory is an error, and nothing is created", arguments: ["--db", "CATALOGUE_DB"])
    func missingDirectory(how: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let directory = runner.directory.appendingPathComponent("no/such/dir")
        let path = directory.appendingPathComponent("x.sqlite").path
        let result = how == "--db"
            ? try runner.run(["search", "bog", "--db", path])
            : try runner.run(["search", "bog"], environment: ["CATALOGUE_DB": path])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "catalogue: error: cannot create \(path): no directory \(directory.path) (create it first, or check the path)\n")
        #expect(!FileManager.default.fileExists(atPath: runner.directory.appendingPathComponent("no").path))
    }

    @Test("The default location's directories are created on first use")
    func defaultLocation() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let data = runner.directory.appendingPathComponent("xdg/data")
        let result = try runner.run(["search", "bog", "--scope", "capital"], environment: ["CATALOGUE_DB": "", "XDG_DATA_HOME": data.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Colombia"))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("catalogue/catalogue.sqlite").path))
        // On a pipe, no announcement.
        #expect(result.standardError.isEmpty)
    }

    @Test("On a terminal, a new catalogue is announced once on stderr")
    func announcedOnTerminal() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.directory.appendingPathComponent("new.sqlite").path
        let command = "\(CommandRunner.executable.path) search bog --scope capital --db \(path)"
        // script(1) runs the command on a pseudo-terminal (stdout and stderr both).
        let first = try runner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(first.status == 0, "\(first.standardOutput)")
        #expect(first.standardOutput.components(separatedBy: "catalogue: created a new catalogue at \(path)").count == 2, "\(first.standardOutput)")
        #expect(first.standardOutput.contains("Colombia"))
        let second = try runner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(second.status == 0)
        #expect(!second.standardOutput.contains("created"))
        #expect(second.standardOutput.contains("Colombia"))
    }

    @Test("On a terminal, a first import that stops at a bad row still announces the catalogue it leaves")
    func announcedAfterFailedFirstImport() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.directory.appendingPathComponent("new.sqlite").path
        let csv = runner.directory.appendingPathComponent("bad.csv")
        try "name,type,year\nLamp,Lighting,1999\nChair,Furniture,nineteen\n".write(to: csv, atomically: true, encoding: .utf8)
        let command = "\(CommandRunner.executable.path) import products \(csv.path) --db \(path)"
        let result = try runner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(result.status == 1, "\(result.standardOutput)")
        // A slow first import (a sanitizer's build) may draw the progress bar before it fails;
        // erased, it leaves nothing on the screen.
        let lines = TerminalTranscript.lines(of: result.standardOutput)
        #expect(lines.first == "catalogue: created a new catalogue at \(path)", "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("catalogue: error: \(csv.path):3: year") }, "\(result.standardOutput)")
        // What it left is the seeded catalogue, without the file's rows.
        let search = try runner.run(["search", "lamp", "--entity", "products", "--db", path])
        #expect(search.status == 0, "\(search.standardError)")
        #expect(search.standardOutput.contains("No items found"), "\(search.standardOutput)")
        let countries = try runner.run(["search", "bog", "--scope", "capital", "--db", path])
        #expect(countries.standardOutput.contains("Colombia"))
    }

    @Test("On a terminal, a search of a path another process is creating says it waits, and does not claim the catalogue")
    func waitForCreationOnTerminal() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.directory.appendingPathComponent("new.sqlite").path
        // This test holds the lock of the temporary file (.new.sqlite.creating), as another
        // process's first import does.
        let importing = try CreationLockHolder(catalogueAt: path)
        // script(1) runs the command on a pseudo-terminal and, with -f, writes what it shows
        // to the log as it comes.
        let log = runner.directory.appendingPathComponent("terminal.log").path
        let search = Process()
        search.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        search.arguments = ["-qfec", "\(CommandRunner.executable.path) search bog --scope capital --db \(path)", log]
        search.standardOutput = FileHandle.nullDevice
        try search.run()
        let waiting = "catalogue: waiting for another process to finish creating \(path)…"
        let deadline = Date().addingTimeInterval(60)
        func shown() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        while !shown().contains(waiting), search.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(shown().contains(waiting), "\(shown())")
        // The other process links its catalogue into place and lets go of its file.
        let other = runner.directory.appendingPathComponent("other.sqlite").path
        #expect(try runner.run(["search", "bog", "--db", other]).status == 0)
        try #require(link(other, path) == 0)
        unlink(importing.temporaryPath)
        importing.release()
        search.waitUntilExit()
        #expect(search.terminationStatus == 0)
        #expect(shown().contains("Colombia"), "\(shown())")
        #expect(!shown().contains("created"), "\(shown())")
    }
}
