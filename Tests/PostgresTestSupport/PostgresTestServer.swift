import Foundation

/// A throwaway PostgreSQL server for tests: initialized in a temporary directory, listening on
/// a free port of 127.0.0.1 only (and a Unix socket in that directory), with fsync off; stopped
/// and removed by ``stop()``, or by its watchdog once the test process is gone, however it ends.
///
/// One server per test process, started on first use and shared by every suite; each test (or
/// suite) takes a database of its own from a template that has `pg_trgm` and `unaccent`:
///
/// ```swift
/// @Suite(.requiresPostgres)  // skipped, with the apt-get line, where PostgreSQL is missing
/// struct ProductSearchTests {
///     @Test func prefixSearch() throws {
///         let database = try PostgresTestServer.shared().createDatabase()
///         try database.psql("CREATE TABLE t (name text)")
///         let url = database.url  // postgres://postgres@127.0.0.1:PORT/test_1_4242
///     }
/// }
/// ```
///
/// When the tests run as root, the server runs as the `postgres` user (else `nobody`) through
/// `setpriv`, since `initdb` and `postgres` refuse root. The superuser role is `postgres`,
/// trusted over the socket and over TCP; other roles log in with a password (SCRAM).
public final class PostgresTestServer: Sendable {
    /// The server's address: always the loopback address.
    public let host = "127.0.0.1"
    /// The TCP port it listens on.
    public let port: Int
    /// The superuser role.
    public let superuser = "postgres"
    /// The temporary directory holding the data directory, the socket and the log.
    public let directory: URL
    /// The server programs used.
    public let binaries: PostgresBinaries

    let user: ServerUser?
    private let watchdog: Process
    let state = LockedState()

    /// The database every test database is copied from: `pg_trgm` and `unaccent` installed.
    public static let templateDatabase = "catalogue_template"

    /// The data directory.
    public var dataDirectory: URL { directory.appendingPathComponent("data") }
    /// The server log.
    public var logFile: URL { directory.appendingPathComponent("server.log") }
    /// The self-signed certificate of a server started with `tls: true`, for clients to trust
    /// (`sslrootcert`); nil for a server without TLS.
    public var certificatePath: String? {
        let path = directory.appendingPathComponent("server.crt").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private init(port: Int, directory: URL, binaries: PostgresBinaries, user: ServerUser?, watchdog: Process, postmaster: Process) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
        self.user = user
        self.watchdog = watchdog
        state.withLock { $0.postmaster = postmaster }
    }

    // MARK: - The shared server

    private static let sharedServer = Result<PostgresTestServer, any Error> { try start() }

    /// The server of this test process, started on first use. Throws
    /// ``PostgresTestServerError/notInstalled(_:)`` where PostgreSQL is missing, so a test that
    /// runs anyway (with `CI` set) fails with the reason.
    public static func shared() throws -> PostgresTestServer {
        try sharedServer.get()
    }

    /// Whether the PostgreSQL binaries of this machine can run a test server (found once).
    public static let availability = PostgresBinaries.locate()

    /// Whether tests that need PostgreSQL should run: where it is installed, and always under
    /// CI (the `CI` environment variable set), where a missing PostgreSQL must fail them rather
    /// than skip them.
    public static func testsShouldRun(
        availability: PostgresBinaries.Availability = availability,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        if case .available = availability { return true }
        return !(environment["CI"] ?? "").isEmpty
    }

    /// Why tests that need PostgreSQL are skipped here (nil where they run).
    public static var skipReason: String? {
        if case .missing(let reason) = availability { return reason }
        return nil
    }

    // MARK: - Starting and stopping

    /// Starts a server of its own (most tests use ``shared()``). Its watchdog stops and removes
    /// it once process `owner` (this one by default) has exited. `tls`: the server offers TLS
    /// with a self-signed certificate for `localhost` (``certificatePath``), as Debian's
    /// PostgreSQL does with its own, and logs ``certificateRole`` in by client certificate
    /// (``makeClientCertificate(commonName:in:name:trusted:)``).
    public static func start(owner: pid_t = getpid(), tls: Bool = false) throws -> PostgresTestServer {
        guard case .available(let binaries) = PostgresBinaries.locate() else {
            throw PostgresTestServerError.notInstalled(skipReason ?? PostgresBinaries.installCommand)
        }
        let user = try ServerUser.forCurrentProcess()
        let directory = try makeDirectory(owner: user)
        let watchdog: Process
        do {
            watchdog = try ServerWatchdog.start(owner: owner, directory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        do {
            try initialize(directory: directory, binaries: binaries, user: user)
            if tls { try offerTLS(directory: directory, user: user) }
            var lastError: (any Error)?
            for _ in 0..<5 {
                let port = try FreePort.find()
                do {
                    let postmaster = try startPostmaster(directory: directory, port: port, binaries: binaries, user: user)
                    let server = PostgresTestServer(
                        port: port, directory: directory, binaries: binaries, user: user, watchdog: watchdog, postmaster: postmaster)
                    try server.createTemplate()
                    if tls { try server.psql("CREATE ROLE \(certificateRole) LOGIN") }
                    return server
                } catch PostgresTestServerError.commandFailed(let command, let status, let output) where output.contains("already in use") {
                    lastError = PostgresTestServerError.commandFailed(command: command, status: status, output: output)
                }
            }
            throw lastError ?? PostgresTestServerError.noFreePort("every port tried was taken")
        } catch {
            // The watchdog removes the directory (and any server) once we are gone; do it now.
            stopQuietly(directory: directory, binaries: binaries, user: user)
            watchdog.terminate()
            throw error
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`) and removes its directory. Idempotent.
    public func stop() throws {
        let alreadyStopped = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !alreadyStopped else { return }
        defer {
            try? FileManager.default.removeItem(at: directory)
            if watchdog.isRunning { watchdog.terminate() }
        }
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) {
            try runChecked(binaries.path(of: "pg_ctl"), ["-D", dataDirectory.path, "-m", "fast", "-w", "-t", "60", "stop"], asServerUser: true)
        }
        state.withLock { $0.postmaster }?.waitUntilExit()
    }

    /// Whether the postmaster is running.
    public var isRunning: Bool {
        guard let pid = postmasterPID else { return false }
        return kill(pid, 0) == 0
    }

    /// The postmaster's process id, from `postmaster.pid` (nil when it is not running).
    public var postmasterPID: pid_t? {
        guard let text = try? String(contentsOf: dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8),
              let first = text.split(separator: "\n").first
        else { return nil }
        return pid_t(first.trimmingCharacters(in: .whitespaces))
    }

    // MARK: - Databases and SQL

    /// A new database copied from `template` (by default ``templateDatabase``: empty, with
    /// `pg_trgm` and `unaccent`), named `PREFIX_N_PID`. A database used as `template` must have
    /// no other connections.
    public func createDatabase(prefix: String = "test", template: String = templateDatabase) throws -> PostgresTestDatabase {
        let number = try state.withLock { state -> Int in
            guard !state.stopped else { throw PostgresTestServerError.stopped }
            state.databaseCount += 1
            return state.databaseCount
        }
        let cleaned = String(prefix.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }.prefix(40))
        let name = "\(cleaned.isEmpty ? "test" : cleaned)_\(number)_\(getpid())"
        try psql("CREATE DATABASE :\"name\" TEMPLATE :\"template\"", variables: ["name": name, "template": template])
        return PostgresTestDatabase(server: self, name: name)
    }

    /// A login role with `password` (SCRAM), for tests of password authentication.
    public func createRole(_ name: String, password: String) throws {
        try psql("CREATE ROLE :\"role\" LOGIN PASSWORD :'password'", variables: ["role": name, "password": password])
    }

    /// Ends every connection of `role` (`pg_terminate_backend`) and waits, up to 10 s, until
    /// the server lists none: a backend exits a moment after it is told to, and a call made
    /// meanwhile could still be served by it.
    public func terminateConnections(of role: String) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let left = try psql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = :'role'", variables: ["role": role])
            guard left.trimmingCharacters(in: .whitespacesAndNewlines) != "0" else { return }
            guard ContinuousClock.now < deadline else {
                throw PostgresTestServerError.commandFailed(
                    command: "pg_terminate_backend (\(role))", status: 1, output: "\(left) connections still listed after 10 s")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// `postgres://USER@127.0.0.1:PORT/DATABASE`.
    public func url(database: String, user: String? = nil, password: String? = nil) -> String {
        var credentials = user ?? superuser
        if let password { credentials += ":" + (password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password) }
        return "postgres://\(credentials)@\(host):\(port)/\(database)"
    }

    /// Runs `sql` through `psql` (unaligned, tuples only, stopping at the first error) and
    /// returns what it printed. `variables` become psql variables (`:'name'` quotes one as a
    /// literal, `:"name"` as an identifier), so values are never spliced into the SQL text.
    /// Over the Unix socket unless `overTCP`.
    @discardableResult
    public func psql(
        _ sql: String, database: String = "postgres", variables: [String: String] = [:],
        user: String? = nil, password: String? = nil, overTCP: Bool = false
    ) throws -> String {
        var arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                         "-h", overTCP ? host : directory.path, "-p", String(port),
                         "-U", user ?? superuser, "-d", database]
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
            arguments += ["-v", "\(name)=\(value)"]
        }
        arguments += ["-f", "-"]
        var environment = ["PGCONNECT_TIMEOUT": "10"]
        if let password { environment["PGPASSWORD"] = password }
        let result = try Subprocess.run(binaries.path(of: "psql"), arguments, input: sql, environment: environment)
        guard result.status == 0 else {
            throw PostgresTestServerError.commandFailed(
                command: "psql -d \(database)", status: result.status, output: result.errorOutput + result.output)
        }
        return result.output
    }

    // MARK: - Internals

    private func createTemplate() throws {
        try psql("""
            CREATE DATABASE \(Self.templateDatabase);
            \\connect \(Self.templateDatabase)
            CREATE EXTENSION pg_trgm;
            CREATE EXTENSION unaccent;
            \\connect postgres
            ALTER DATABASE \(Self.templateDatabase) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false;
            """)
    }

    private func runChecked(_ executable: String, _ arguments: [String], asServerUser: Bool) throws {
        let result = try Subprocess.run(executable, arguments, as: asServerUser ? user : nil)
        guard result.status == 0 else {
            throw PostgresTestServerError.commandFailed(
                command: ([URL(fileURLWithPath: executable).lastPathComponent] + arguments).joined(separator: " "),
                status: result.status, output: result.errorOutput + result.output)
        }
    }
}
