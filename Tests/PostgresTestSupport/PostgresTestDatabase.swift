import Foundation

/// A database of its own on a ``PostgresTestServer``, copied from its template (so `pg_trgm`
/// and `unaccent` are installed). Removed with the server, or earlier by ``drop()``.
///
/// ```swift
/// let database = try PostgresTestServer.shared().createDatabase(prefix: "sections")
/// try database.psql("CREATE TABLE t (id bigint)")
/// print(database.url)  // postgres://postgres@127.0.0.1:PORT/sections_3_4242
/// ```
public struct PostgresTestDatabase: Sendable {
    /// The server it lives on.
    public let server: PostgresTestServer
    /// Its name.
    public let name: String

    /// `postgres://postgres@127.0.0.1:PORT/NAME`.
    public var url: String { server.url(database: name) }

    /// Runs `sql` in this database through `psql`; see ``PostgresTestServer/psql(_:database:variables:user:password:overTCP:)``.
    @discardableResult
    public func psql(
        _ sql: String, variables: [String: String] = [:], user: String? = nil, password: String? = nil, overTCP: Bool = false
    ) throws -> String {
        try server.psql(sql, database: name, variables: variables, user: user, password: password, overTCP: overTCP)
    }

    /// Waits until no other session is connected to this database (a killed client's server
    /// process has ended its transaction; a catalogue that went has closed its pool, as a
    /// template must have no connections); false after `timeout` seconds.
    public func waitForNoSessions(timeout: TimeInterval = 120) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let query = "SELECT count(*) FROM pg_stat_activity WHERE datname = :'name' AND pid <> pg_backend_pid()"
        while true {
            if try server.psql(query, variables: ["name": name]) == "0\n" { return true }
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Drops the database, ending its connections.
    public func drop() throws {
        try server.psql("DROP DATABASE :\"name\" WITH (FORCE)", variables: ["name": name])
    }
}
