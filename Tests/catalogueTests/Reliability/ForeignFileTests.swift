import Foundation
import PostgresTestSupport
import Testing

/// Files that are not catalogues are refused, untouched, by every command (issue 13, items 2
/// and 10): a SQLite database of another program, an empty SQLite database, a device, a FIFO,
/// a socket. Read-only commands never change an existing catalogue either.
@Suite("Foreign files (the built binary)", .serialized)
struct ForeignFileTests {
    /// Every command that opens the database, as a user would run it on `path`.
    static func commands(_ runner: CommandRunner) throws -> [[String]] {
        let file = runner.directory.appendingPathComponent("p.csv").path
        try "name,type\nIntruder,thing\n".write(toFile: file, atomically: true, encoding: .utf8)
        return [
            ["search", "co"], ["browse"], ["index"], ["show", "CO"], ["export", "products"],
            ["import", "products", file], ["import", "products", file, "--dry-run"],
        ]
    }

    /// The names in `directory`, sorted.
    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("Another program's SQLite database is refused by every command, byte for byte unchanged", arguments: [
        "CREATE TABLE t (x); INSERT INTO t VALUES (1);",
        "PRAGMA user_version = 7; VACUUM;",  // a valid database with no table at all
        "CREATE TABLE catalogue_migrations (identifier TEXT, checksum TEXT, applied_at TEXT);",  // no first migration
    ])
    func foreignDatabase(sql: String) async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let directory = runner.directory.appendingPathComponent("foreign")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("other.db").path
            _ = try sqliteValue(path, sql)
            let bytes = try #require(FileManager.default.contents(atPath: path))
            let files = try Self.listing(directory)
            for command in try Self.commands(runner) {
                let result = try runner.run(command + ["--db", path])
                #expect(result.status == 1, "\(command): \(result.standardError)")
                #expect(result.standardError ==
                    "catalogue: error: cannot open \(path): it is a SQLite database but not a catalogue; the file is unchanged\n", "\(command)")
                #expect(result.standardOutput.isEmpty, "\(command)")
                #expect(FileManager.default.contents(atPath: path) == bytes, "\(command) changed the file")
                #expect(try Self.listing(directory) == files, "\(command) left files next to it")
            }
        }
    }

    @Test("A device, a FIFO or a socket is named as such, without advice to remove it")
    func specialFiles() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let fifo = runner.directory.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let socketPath = runner.directory.appendingPathComponent("socket").path
            let socket = try UnixSocket(path: socketPath)
            defer { socket.closeSocket() }
            for (path, kind) in [("/dev/null", "a character device"), (fifo, "a FIFO (named pipe)"), (socketPath, "a socket")] {
                for command in try Self.commands(runner) {
                    let result = try runner.run(command + ["--db", path])
                    #expect(result.status == 1, "\(command) \(path)")
                    #expect(result.standardError == "catalogue: error: cannot open \(path): it is \(kind), not a catalogue database\n",
                            "\(command) \(path)")
                }
            }
        }
    }

    @Test("Read-only commands never change an existing catalogue: its journal mode stays, its bytes stay")
    func readOnlyCommandsChangeNothing() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            try #require(try runner.run(["search", "x"]).status == 0)
            // A catalogue someone switched back to a rollback journal: opening it for writing would
            // switch it to WAL (a write); reading must not.
            #expect(try sqliteValue(runner.databasePath, "PRAGMA journal_mode = DELETE") == "delete")
            let bytes = try #require(FileManager.default.contents(atPath: runner.databasePath))
            for command in [["search", "co"], ["browse"], ["index"], ["show", "CO"], ["export", "countries"], ["search", "ip", "--entity", "products"]] {
                let result = try runner.run(command)
                #expect(result.status == 0, "\(command): \(result.standardError)")
                #expect(FileManager.default.contents(atPath: runner.databasePath) == bytes, "\(command) changed the file")
            }
            #expect(try sqliteValue(runner.databasePath, "PRAGMA journal_mode") == "delete")
        }
    }
}

/// A listening Unix domain socket bound at a path.
struct UnixSocket {
    let descriptor: Int32

    init(path: String) throws {
        #if canImport(Glibc)
        let streamType = Int32(SOCK_STREAM.rawValue)
        #else
        let streamType = SOCK_STREAM
        #endif
        descriptor = socket(AF_UNIX, streamType, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1)) + [0]
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func closeSocket() {
        _ = close(descriptor)
    }
}
