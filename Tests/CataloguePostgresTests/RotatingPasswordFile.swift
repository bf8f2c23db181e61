#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// A role whose password the catalogue reads from a password file (`PGPASSFILE`), which a test
/// rotates as an operator would: on the server and in the file, the role's connections ended.
///
/// ```swift
/// let rotating = try await RotatingPasswordFile.make(prefix: "probe_rotate")
/// let catalogue = try await rotating.catalogue(options: PostgresEngine.Options())
/// try await rotating.rotate(to: "pw-second-Zr9")
/// ```
struct RotatingPasswordFile: Sendable {
    let server: PostgresTestServer
    let database: PostgresTestDatabase
    let role: String
    let path: String

    /// A database and a superuser role of its own (password `pw-first-Qx7`, in a new password
    /// file, which ``remove()`` removes).
    static func make(prefix: String) async throws -> RotatingPasswordFile {
        let (server, database, role) = try await HostProbeTests.databaseWithRole(prefix: prefix)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        let rotating = RotatingPasswordFile(server: server, database: database, role: role, path: path)
        try rotating.write("pw-first-Qx7")
        return rotating
    }

    /// Writes `password` for the role into the file (mode 0600, as libpq requires).
    func write(_ password: String) throws {
        try "127.0.0.1:\(server.port):\(database.name):\(role):\(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o600) == 0)
    }

    /// A catalogue on the database as the role, its password from the file.
    func catalogue(options: PostgresEngine.Options) async throws -> Catalogue {
        let target = try PostgresTarget(url: server.url(database: database.name, user: role), environment: ["PGPASSFILE": path])
        return try await onOwnThread { Catalogue(engine: try PostgresEngine(target: target, options: options)) }
    }

    /// Rotates the role's password to `password`: on the server, then in the file, then ends
    /// the role's connections (the pool's and the listener's).
    func rotate(to password: String) async throws {
        try await onOwnThread {
            try server.psql("ALTER ROLE :\"role\" PASSWORD :'password'", variables: ["role": role, "password": password])
            try write(password)
            try server.terminateConnections(of: role)
        }
    }

    /// Removes the password file.
    func remove() {
        unlink(path)
    }

    /// Runs `body` up to `attempts` times, until it returns: whether it did, and the errors of
    /// the attempts that threw.
    static func untilServed(attempts: Int, _ body: @escaping @Sendable () throws -> Void) async throws -> (served: Bool, errors: [String]) {
        var errors: [String] = []
        for _ in 0..<attempts {
            guard let error = try await HostProbeTests.failure(body) else { return (true, errors) }
            #expect((error as? any DatabaseAvailabilityError)?.isDatabaseUnavailable == true, "\(error)")
            errors.append("\(error)")
        }
        return (false, errors)
    }
}
#endif
