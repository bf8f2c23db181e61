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
        var configuration = if let socketPath {
            PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// The connection pool's configuration.
    func clientConfiguration(tls: PostgresClient.Configuration.TLS) -> PostgresClient.Configuration {
        var configuration = if let socketPath {
            PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// What every connection tells the server when it starts: the application name, and the
    /// session's settings (``options``) when there are any.
    private var startupParameters: [(String, String)] {
        [("application_name", applicationName)] + (options.map { [("options", $0)] } ?? [])
    }
}
#endif
