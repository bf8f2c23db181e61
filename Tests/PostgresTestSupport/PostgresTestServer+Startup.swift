import Foundation

/// Creating, initializing and starting a test server's cluster.
extension PostgresTestServer {
    static func makeDirectory(owner user: ServerUser?) throws -> URL {
        // As root, /tmp: the server user must be able to reach the directory. Unix socket paths
        // are limited to about 100 bytes, so a long TMPDIR is not used either.
        var base = FileManager.default.temporaryDirectory.path
        if user != nil || base.utf8.count > 60 { base = "/tmp" }
        var template = Array("\(base)/catalogue-pg-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw PostgresTestServerError.commandFailed(command: "mkdtemp \(base)", status: errno, output: String(cString: strerror(errno)))
        }
        let path = String(cString: created)
        if let user, chown(path, user.uid, user.gid) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: path)
            throw PostgresTestServerError.cannotDropRoot("cannot give \(path) to \(user.name): \(reason)")
        }
        return URL(fileURLWithPath: path)
    }

    static func initialize(directory: URL, binaries: PostgresBinaries, user: ServerUser?) throws {
        let data = directory.appendingPathComponent("data")
        let hasUTF8Locale = ["/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8"].contains { FileManager.default.fileExists(atPath: $0) }
        let result = try Subprocess.run(
            binaries.path(of: "initdb"),
            ["-D", data.path, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]
                + (hasUTF8Locale ? ["--locale=C.UTF-8"] : ["--no-locale"]),
            as: user)
        guard result.status == 0 else {
            throw PostgresTestServerError.commandFailed(command: "initdb", status: result.status, output: result.errorOutput + result.output)
        }
        // Loopback only; the superuser is trusted, every other role needs its password.
        let hba = """
            local all all trust
            host all postgres 127.0.0.1/32 trust
            host all all 127.0.0.1/32 scram-sha-256

            """
        let settings = """

            # PostgresTestServer: a throwaway server for tests.
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(directory.path)'
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 100
            shared_buffers = 64MB

            """
        try write(hba, to: data.appendingPathComponent("pg_hba.conf"), owner: user, append: false)
        try write(settings, to: data.appendingPathComponent("postgresql.conf"), owner: user, append: true)
    }

    /// Makes a self-signed certificate for `localhost` with `openssl` (its copy for clients is
    /// ``PostgresTestServer/certificatePath``) and turns TLS on with it; trusts an authority for
    /// client certificates (``trustClientAuthority(directory:user:)``).
    static func offerTLS(directory: URL, user: ServerUser?) throws {
        let data = directory.appendingPathComponent("data")
        let certificate = data.appendingPathComponent("server.crt")
        let key = data.appendingPathComponent("server.key")
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                     "-addext", "subjectAltName=DNS:localhost", "-keyout", key.path, "-out", certificate.path])
        // The server refuses a key others can read; the client's copy sits outside its directory.
        chmod(key.path, 0o600)
        for file in [certificate, key] {
            if let user { _ = chown(file.path, user.uid, user.gid) }
        }
        try FileManager.default.copyItem(at: certificate, to: directory.appendingPathComponent("server.crt"))
        chmod(directory.appendingPathComponent("server.crt").path, 0o644)
        let settings = """

            ssl = on
            ssl_cert_file = 'server.crt'
            ssl_key_file = 'server.key'

            """
        try write(settings, to: data.appendingPathComponent("postgresql.conf"), owner: user, append: true)
        try trustClientAuthority(directory: directory, user: user)
    }

    static func write(_ text: String, to file: URL, owner user: ServerUser?, append: Bool) throws {
        if append {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } else {
            try Data(text.utf8).write(to: file)
        }
        if let user { _ = chown(file.path, user.uid, user.gid) }
    }

    /// Starts `postgres` as a child of this process and waits until it accepts connections.
    ///
    /// Not through `pg_ctl start`: the postmaster it leaves behind would inherit the socket
    /// through which Foundation learns that pg_ctl ended, and `waitUntilExit()` would wait for
    /// the server instead. A direct child is reaped once the server stops.
    static func startPostmaster(directory: URL, port: Int, binaries: PostgresBinaries, user: ServerUser?) throws -> Process {
        let data = directory.appendingPathComponent("data")
        let log = directory.appendingPathComponent("server.log")
        let pidFile = data.appendingPathComponent("postmaster.pid")
        // A restarted server appends to the log of its first start.
        guard FileManager.default.fileExists(atPath: log.path) || FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw PostgresTestServerError.commandFailed(command: "create \(log.path)", status: errno, output: String(cString: strerror(errno)))
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        try logHandle.seekToEnd()
        let arguments = ["-D", data.path, "-p", String(port)]
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: user.setprivPath)
            process.arguments = user.setprivArguments + ["--", binaries.path(of: "postgres")] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binaries.path(of: "postgres"))
            process.arguments = arguments
        }
        process.environment = Subprocess.cleanEnvironment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        // Ready when postmaster.pid's status line (the 8th) says so, as `pg_ctl -w` checks.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8) {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count >= 8, lines[7].trimmingCharacters(in: .whitespaces) == "ready" {
                    return process
                }
            }
            if !process.isRunning || Date() > deadline {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw PostgresTestServerError.commandFailed(command: "postgres -D \(data.path) -p \(port)", status: process.terminationStatus, output: output)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    static func stopQuietly(directory: URL, binaries: PostgresBinaries, user: ServerUser?) {
        let data = directory.appendingPathComponent("data")
        if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
            _ = try? Subprocess.run(binaries.path(of: "pg_ctl"), ["-D", data.path, "-m", "immediate", "-w", "stop"], as: user)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
