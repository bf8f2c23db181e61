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

    /// Drops the database, ending its connections.
    public func drop() throws {
        try server.psql("DROP DATABASE :\"name\" WITH (FORCE)", variables: ["name": name])
    }
}
