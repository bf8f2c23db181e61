#if PostgreSQL
@_exported import CatalogueCore
import Foundation

extension Catalogue {
    /// Opens the catalogue in a PostgreSQL database: connects, checks the server, migrates and
    /// (when new) seeds the database, and starts a connection pool.
    ///
    /// ```swift
    /// import CataloguePostgres
    ///
    /// let catalogue = try Catalogue.connect(to: "postgres://app:secret@127.0.0.1:5432/catalogue")
    /// let results = try await catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
    /// results.records.first?.name  // "Colombia"
    /// ```
    ///
    /// A server that is down, a wrong password or an unknown database throws a
    /// ``PostgresEngineError`` whose description is one line naming the server (never the
    /// password). From `async` code use the catalogue's `async` methods: the synchronous ones
    /// block their thread until the server answers (see ``PostgresEngine``).
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database` (`postgresql://` too;
    ///     `?sslmode=disable|prefer|require|verify-ca|verify-full&sslrootcert=PATH`, as libpq; what
    ///     it leaves out comes from its `?service=NAME` (`~/.pg_service.conf`), `PGHOST`,
    ///     `PGUSER`, `PGPASSWORD`, `~/.pgpass` and the rest of libpq's environment, see
    ///     ``PostgresTarget/init(url:environment:)``).
    ///   - options: pool size, deadlines, seeding, app migrations, LISTEN/NOTIFY.
    public static func connect(to url: String, options: PostgresEngine.Options = PostgresEngine.Options()) throws -> Catalogue {
        Catalogue(engine: try PostgresEngine(url: url, options: options))
    }

    /// Opens the catalogue in the PostgreSQL database at `url`; see ``connect(to:options:)-(String,_)``.
    public static func connect(to url: URL, options: PostgresEngine.Options = PostgresEngine.Options()) throws -> Catalogue {
        try connect(to: url.absoluteString, options: options)
    }

    /// The PostgreSQL engine, when the catalogue runs on PostgreSQL (nil on another engine).
    public var postgres: PostgresEngine? {
        engine as? PostgresEngine
    }
}
#endif
