import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Bad database files: each gives one clear `catalogue: error: …` line and a non-zero exit, and
/// the file is never modified or deleted.
@Suite("Bad database files (the built binary)", .serialized)
struct BadFilesTests {
    /// Runs `catalogue search x --db PATH` and checks the error line and that the file is unchanged.
    func expectRefused(_ runner: CommandRunner, path: String, arguments: [String] = ["search", "x"], message: String) throws {
        let before = FileManager.default.contents(atPath: path)
        let result = try runner.run(arguments + ["--db", path])
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("catalogue: error: ") == true, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(FileManager.default.contents(atPath: path) == before, "the file changed")
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("An empty file is refused, not turned into a catalogue")
    func emptyFile() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.directory.appendingPathComponent("empty.sqlite").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        try expectRefused(runner, path: path, message: "the file is empty")
    }

    @Test("A text file is not a database")
    func textFile() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.directory.appendingPathComponent("notes.txt").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data(String(repeating: "hello, this is not a database\n", count: 200).utf8)))
        try expectRefused(runner, path: path, message: "file is not a database")
    }

    @Test("A directory is refused: one line, and nothing is created or changed in it")
    func directory() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let directory = runner.directory.appendingPathComponent("a-directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: directory.appendingPathComponent("inside.txt"))
        let parentBefore = try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).sorted()
        for arguments in [["search", "x"], ["import", "products", "-"], ["export", "countries"]] {
            let result = try runner.run(arguments + ["--db", directory.path], input: Data("name,type\na,b\n".utf8))
            #expect(result.status == 1, "\(arguments)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardError == "catalogue: error: cannot open \(directory.path): it is a directory, not a catalogue database\n")
            #expect(result.standardOutput.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["inside.txt"], "\(arguments)")
            #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("inside.txt").path) == Data("kept".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: runner.directory.path).sorted() == parentBefore, "\(arguments)")
        }
    }

    /// A catalogue made by the binary, checkpointed so the main file holds everything.
    func makeCatalogue(_ runner: CommandRunner, name: String) throws -> String {
        let path = runner.directory.appendingPathComponent(name).path
        let created = try runner.run(["search", "x", "--db", path])
        try #require(created.status == 0, "\(created.standardError)")
        try shell("/usr/bin/sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        return path
    }

    @Test("A truncated database is reported as malformed")
    func truncatedDatabase() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = try makeCatalogue(runner, name: "truncated.sqlite")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: path))
        try expectRefused(runner, path: path, arguments: ["search", "--limit", "0", "a"], message: "database disk image is malformed")
    }

    @Test("A database from a newer version of the schema is refused and left unchanged")
    func newerSchema() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = try makeCatalogue(runner, name: "newer.sqlite")
        try shell("/usr/bin/sqlite3", [path,
            "INSERT INTO catalogue_migrations VALUES ('9999_future', 'x', 'now'); PRAGMA wal_checkpoint(TRUNCATE);"])
        try expectRefused(runner, path: path, message: "was migrated by a newer version")
    }

    @Test("A read-only directory: creating a catalogue there fails with a clear error")
    func readOnlyDirectory() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let directory = runner.directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try makeReadOnly(directory.path)
        defer { try? undoReadOnly(directory.path) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let result = try runner.run(["search", "x", "--db", path])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("catalogue: error: cannot open \(path)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("A link planted where a new catalogue is built: search and import refuse it in one line, and the file it names is unchanged")
    func plantedLinkAtTheTemporaryName() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // A directory others can write: one of them links the name a creation builds in to the user's file.
        let shared = runner.directory.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let victim = runner.directory.appendingPathComponent("notes.txt").path
        let precious = Data("precious data\n".utf8)
        try #require(FileManager.default.createFile(atPath: victim, contents: precious))
        let path = shared.appendingPathComponent("c.sqlite").path
        let temporary = shared.appendingPathComponent(".c.sqlite.creating").path
        try #require(symlink(victim, temporary) == 0)
        let csv = runner.directory.appendingPathComponent("p.csv").path
        try "name,type\nWidget,tool\n".write(toFile: csv, atomically: true, encoding: .utf8)
        for arguments in [["search", "x"], ["import", "products", csv]] {
            let result = try runner.run(arguments + ["--db", path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError == "catalogue: error: cannot open \(path): cannot create a new catalogue there: \(temporary), "
                + "where a new catalogue is built, is a symbolic link, which catalogue never makes; remove it\n", "\(arguments)")
            #expect(FileManager.default.contents(atPath: victim) == precious, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(arguments)")
        }
    }

    @Test("A log file of the catalogue that is a symbolic link: one line saying so, and the file it names is unchanged",
          arguments: ["-wal", "-shm", "-journal"])
    func plantedLinkAsALogFile(suffix: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = runner.databasePath
        #expect(try runner.run(["search", "x", "--db", path]).status == 0)
        for leftover in ["-wal", "-shm", "-journal"] { unlink(path + leftover) }
        let victim = runner.directory.appendingPathComponent("notes.txt").path
        let precious = Data("precious data\n".utf8)
        try #require(FileManager.default.createFile(atPath: victim, contents: precious))
        try #require(symlink(victim, path + suffix) == 0)
        let csv = runner.directory.appendingPathComponent("p.csv").path
        try "name,type\nWidget,tool\n".write(toFile: csv, atomically: true, encoding: .utf8)
        for arguments in [["search", "x"], ["import", "products", csv]] {
            let result = try runner.run(arguments + ["--db", path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError == "catalogue: error: cannot open \(path): \(path + suffix) is a symbolic link, "
                + "which SQLite does not follow; remove it (the catalogue's own is a file)\n", "\(arguments)")
            #expect(FileManager.default.contents(atPath: victim) == precious, "\(arguments)")
        }
        // Removed, the catalogue opens as before.
        #expect(unlink(path + suffix) == 0)
        #expect(try runner.run(["import", "products", csv, "--db", path]).status == 0)
        #expect(FileManager.default.contents(atPath: victim) == precious)
    }

    @Test("A read-only catalogue file can still be searched, and is not modified")
    func readOnlyFile() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let path = try makeCatalogue(runner, name: "readonly.sqlite")
        let before = FileManager.default.contents(atPath: path)
        try makeReadOnly(path)
        defer { try? undoReadOnly(path) }
        let result = try runner.run(["search", "bog", "--scope", "capital", "--db", path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try result.jsonNames() == ["Colombia"])
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}

/// Makes a file or directory read-only for this process: `chattr +i` as root (root ignores
/// permission bits), else `chmod a-w`.
func makeReadOnly(_ path: String) throws {
    if getuid() == 0 {
        try shell("/usr/bin/chattr", ["+i", path])
    } else {
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: path)
    }
}

func undoReadOnly(_ path: String) throws {
    if getuid() == 0 {
        try shell("/usr/bin/chattr", ["-i", path])
    } else {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }
}

/// Runs a command and requires it to succeed.
func shell(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let error = Pipe()
    process.standardError = error
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    try #require(process.terminationStatus == 0, "\(executable) \(arguments) failed: \(message)")
}
