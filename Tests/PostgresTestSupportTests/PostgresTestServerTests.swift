import Foundation
import PostgresTestSupport
import Testing

/// The throwaway server: it starts, takes connections on 127.0.0.1 only, hands out databases
/// from its template, and leaves nothing behind, whether stopped or abandoned.
@Suite("PostgresTestServer", .requiresPostgres)
struct PostgresTestServerTests {
    @Test("The shared server accepts connections over TCP on 127.0.0.1, with fsync off")
    func sharedServerAcceptsConnections() throws {
        let server = try PostgresTestServer.shared()
        #expect(server.host == "127.0.0.1")
        #expect(try server.psql("SELECT 1 + 1", overTCP: true) == "2\n")
        #expect(try server.psql("SHOW listen_addresses") == "127.0.0.1\n")
        #expect(try server.psql("SHOW fsync") == "off\n")
        #expect(try server.psql("SHOW port") == "\(server.port)\n")
        #expect(try PostgresTestServer.shared() === server)
        #expect(server.isRunning)
    }

    @Test("The server does not run as root")
    func serverIsUnprivileged() throws {
        let server = try PostgresTestServer.shared()
        let pid = try #require(server.postmasterPID)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let uidLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("Uid:") })
        let realUID = try #require(uidLine.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) })
        if geteuid() == 0 {
            #expect(realUID != 0)
        } else {
            #expect(realUID == geteuid())
        }
    }

    @Test("Each database is new, named after its prefix, with pg_trgm and unaccent")
    func databasesComeFromTheTemplate() throws {
        let server = try PostgresTestServer.shared()
        let first = try server.createDatabase(prefix: "Harness Check")
        let second = try server.createDatabase(prefix: "Harness Check")
        #expect(first.name != second.name)
        #expect(first.name.hasPrefix("harness_check_"))
        #expect(try first.psql("SELECT current_database()", overTCP: true) == first.name + "\n")
        #expect(try first.psql("SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1") == "pg_trgm\nunaccent\n")
        #expect(try first.psql("SELECT similarity('cote', 'côte') > 0, unaccent('Côte')") == "t|Cote\n")
        try first.psql("CREATE TABLE only_here (id int)")
        #expect(try second.psql("SELECT count(*) FROM pg_class WHERE relname = 'only_here'") == "0\n")
        try first.drop()
        try second.drop()
        let names = try server.psql("SELECT datname FROM pg_database")
        #expect(!names.contains(first.name))
    }

    @Test("Databases can be created from several threads at once")
    func concurrentDatabases() async throws {
        let server = try PostgresTestServer.shared()
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask { try server.createDatabase(prefix: "parallel").name }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names.count == 4)
        for name in names {
            #expect(try server.psql("SELECT 1", database: name) == "1\n")
        }
    }

    @Test("Roles other than the superuser log in over TCP with their password only")
    func passwordRoles() throws {
        let server = try PostgresTestServer.shared()
        let database = try server.createDatabase(prefix: "roles")
        let role = "reader_\(getpid())"
        try server.createRole(role, password: "it's a secret")
        #expect(try database.psql("SELECT current_user", user: role, password: "it's a secret", overTCP: true) == role + "\n")
        #expect(throws: PostgresTestServerError.self) {
            try database.psql("SELECT 1", user: role, password: "wrong", overTCP: true)
        }
        do {
            try database.psql("SELECT 1", user: role, password: "wrong", overTCP: true)
        } catch let error as PostgresTestServerError {
            #expect(error.description.contains("password authentication failed for user \"\(role)\""))
        }
        #expect(server.url(database: database.name, user: role, password: "p@ss") == "postgres://\(role):p%40ss@127.0.0.1:\(server.port)/\(database.name)")
    }

    @Test("stop() shuts the server down and removes its directory")
    func stopRemovesEverything() throws {
        let server = try PostgresTestServer.start()
        let shared = try PostgresTestServer.shared()
        #expect(server.port != shared.port)
        let pid = try #require(server.postmasterPID)
        #expect(try server.psql("SELECT 1", overTCP: true) == "1\n")
        #expect(FileManager.default.fileExists(atPath: server.dataDirectory.path))

        try server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
        #expect(kill(pid, 0) != 0)
        #expect(!server.isRunning)
        #expect(!Self.accepts(port: server.port))
        #expect(throws: PostgresTestServerError.stopped) { try server.createDatabase() }
        try server.stop()  // idempotent
        #expect(shared.isRunning)
    }

    @Test("stopImmediately() crashes the server; restart() recovers it on the same port with its committed rows")
    func crashAndRestart() throws {
        let server = try PostgresTestServer.start()
        defer { try? server.stop() }
        let database = try server.createDatabase(prefix: "crash")
        try database.psql("ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf();")
        try database.psql("CREATE TABLE kept (n int); INSERT INTO kept SELECT generate_series(1, 1000);")
        let pid = try #require(server.postmasterPID)
        #expect(throws: PostgresTestServerError.alreadyRunning) { try server.restart() }

        try server.stopImmediately()
        #expect(kill(pid, 0) != 0)
        #expect(!server.isRunning)
        #expect(!Self.accepts(port: server.port))
        // No checkpoint was written: the next start recovers from the write-ahead log.
        let log = try String(contentsOf: server.logFile, encoding: .utf8)
        #expect(log.contains("received immediate shutdown request"))

        try server.restart()
        #expect(server.isRunning)
        #expect(server.postmasterPID != pid)
        #expect(try database.psql("SELECT count(*), sum(n) FROM kept", overTCP: true) == "1000|500500\n")
        #expect(try String(contentsOf: server.logFile, encoding: .utf8).contains("was interrupted"))
        #expect(try database.psql("SHOW synchronous_commit") == "on\n")
    }

    @Test("A database can be copied from another one")
    func databaseFromTemplate() throws {
        let server = try PostgresTestServer.shared()
        let original = try server.createDatabase(prefix: "original")
        try original.psql("CREATE TABLE t (n int); INSERT INTO t VALUES (7);")
        let copy = try server.createDatabase(prefix: "copy", template: original.name)
        try original.psql("INSERT INTO t VALUES (8)")
        #expect(try copy.psql("SELECT string_agg(n::text, ',') FROM t") == "7\n")
        try copy.drop()
        try original.drop()
    }

    @Test("The watchdog stops and removes a server whose owner process was killed")
    func watchdogCleansUpAfterAKilledOwner() throws {
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
        owner.arguments = ["600"]
        owner.standardInput = FileHandle.nullDevice
        owner.standardOutput = FileHandle.nullDevice
        owner.standardError = FileHandle.nullDevice
        try owner.run()
        defer { if owner.isRunning { kill(owner.processIdentifier, SIGKILL) } }
        let server = try PostgresTestServer.start(owner: owner.processIdentifier)
        let pid = try #require(server.postmasterPID)
        #expect(try server.psql("SELECT 1") == "1\n")

        kill(owner.processIdentifier, SIGKILL)
        owner.waitUntilExit()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, FileManager.default.fileExists(atPath: server.directory.path) || kill(pid, 0) == 0 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(kill(pid, 0) != 0, "the postmaster still runs")
        #expect(!FileManager.default.fileExists(atPath: server.directory.path), "the directory is still there")
        #expect(!Self.accepts(port: server.port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
