#if PostgreSQL
import PostgresNIO

/// How postgres-nio reaches a ``PostgresTarget``: over TCP with its TLS mode, or through the
/// server's Unix-domain socket, which libpq never encrypts (`sslmode` does not apply there).
///
/// ```swift
/// let target = try PostgresTarget(url: "postgres://app@/catalogue?host=/var/run/postgresql")
/// target.connectionConfiguration(tls: .disable).unixSocketPath  // "/var/run/postgresql/.s.PGSQL.5432"
/// ```
extension PostgresTarget {
    /// A single connection's configuration.
    func connectionConfiguration(tls: PostgresConnection.Configuration.TLS) -> PostgresConnection.Configuration {
        if let socketPath {
            return PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The connection pool's configuration.
    func clientConfiguration(tls: PostgresClient.Configuration.TLS) -> PostgresClient.Configuration {
        if let socketPath {
            return PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
}
#endif
