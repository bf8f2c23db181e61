import Foundation
import PostgresTestSupport
import Testing

/// A reader who cannot write the database (another user, in a shared sticky directory) leaves
/// nothing the owner cannot use (issue 13, item 7).
///
/// It needs two users: CI runs the tests as root, so the owner is uid 4242 and the reader
/// `nobody`, each run through `setpriv --reuid … --regid … --clear-groups`. As any other user
/// the test cannot switch users and records that it did not run.
@Suite("Readers from another user (the built binary)", .serialized)
struct OtherUserTests {
    static let owner = ["--reuid=4242", "--regid=4242", "--clear-groups"]
    static let reader = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    /// Runs the binary as `user` (setpriv arguments); returns status, stdout and stderr.
    static func run(as user: [String], _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = user + [CommandRunner.executable.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "/nonexistent"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let (outputData, errorData) = readPipesToEnd(output: output, error: error)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Every ancestor of the binary must be searchable by the other users.
    static func binaryReachable() -> Bool {
        access(CommandRunner.executable.path, X_OK) == 0
            && (try? Self.run(as: reader, ["--version"]).status) == 0
    }

    /// The owners of the files next to `database`: name → uid.
    static func owners(in directory: String) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            result[name] = (attributes[.ownerAccountID] as? NSNumber)?.intValue
        }
        return result
    }

    @Test("A search by another user in a sticky shared directory: no file of the reader's, the owner still imports",
          arguments: ["after an import (no -wal file)", "after a search (-wal and -shm left)"])
    func readerLeavesNothing(history: String) async throws {
        try await onOwnThread {
            guard getuid() == 0 else {
                Issue.record("needs root to run commands as other users (setpriv); not run")
                return
            }
            try #require(Self.binaryReachable(), "the test binary must be reachable by nobody")
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let shared = runner.directory.appendingPathComponent("shared").path
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: runner.directory.path)
            let database = shared + "/c.sqlite"
            let csv = shared + "/p.csv"
            try "name,type\nOwned,thing\n".write(toFile: csv, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: csv)

            let created = try Self.run(as: Self.owner, ["import", "products", csv, "--db", database])
            try #require(created.status == 0, "\(created.error)")
            if history.contains("search") {
                #expect(try Self.run(as: Self.owner, ["search", "co", "--db", database]).status == 0)
            }
            let read = try Self.run(as: Self.reader, ["search", "bog", "--scope", "capital", "--format", "json", "--db", database])
            #expect(read.status == 0, "\(read.error)")
            #expect(read.output.contains("Colombia"), "\(read.output)")
            let owners = try Self.owners(in: shared)
            #expect(!owners.values.contains(65534), "the reader left files: \(owners)")
            let again = try Self.run(as: Self.owner, ["import", "products", csv, "--db", database])
            #expect(again.status == 0, "\(again.error)")
            let second = shared + "/q.csv"
            try "name,type\nOwned twice,thing\n".write(toFile: second, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: second)
            let write = try Self.run(as: Self.owner, ["import", "products", second, "--db", database])
            #expect(write.status == 0, "\(write.error)")
            #expect(write.output.hasPrefix("Imported 1 product (1 added"), "\(write.output)")
            // The reader cannot write: it is told so in one line, and nothing changes.
            let refused = try Self.run(as: Self.reader, ["import", "products", csv, "--db", database])
            #expect(refused.status == 1)
            #expect(refused.error == "catalogue: error: cannot write \(database): this user cannot write the file; it is unchanged\n")
            #expect(!(try Self.owners(in: shared)).values.contains(65534))
        }
    }
}
