#if PostgreSQL
import CatalogueCore

extension PostgresEngine {
    /// How the engine connects and how long it waits.
    ///
    /// ```swift
    /// var options = PostgresEngine.Options()
    /// options.maximumConnections = 16
    /// let catalogue = try Catalogue.connect(to: "postgres://app@db:5432/catalogue", options: options)
    /// ```
    public struct Options: Sendable {
        /// The most connections the pool opens (concurrent readers run in parallel up to this).
        public var maximumConnections = 8
        /// How long connecting may take.
        public var connectTimeout: Duration = .seconds(10)
        /// How long waiting for a free connection of the pool may take (a server that went away
        /// makes the pool wait for ever otherwise).
        ///
        /// A call that has waited a second for the pool checks on a connection of its own that
        /// the host answers at all; when it does not (the server is down or restarting) or
        /// refuses the login (the role's password changed), the call fails at once with why
        /// ("connection refused", "password authentication failed for user …"), and so do calls
        /// in the next second; after that one call dials again, and once the host answers (and
        /// logs the role in) the engine starts a new pool, whose connections are made at once.
        /// A call still waiting after its own check learns within a tenth of a second what a
        /// later check found. When the password came from the password file and the file now
        /// gives another, the calls that waited run again on a new pool with it instead of
        /// failing.
        public var leaseTimeout: Duration = .seconds(15)
        /// How long one statement may take, waiting for its connection included; nil for no
        /// limit. Imports are not limited (their COPY runs as long as the file is long).
        public var statementTimeout: Duration? = .seconds(120)
        /// Whether to use LISTEN/NOTIFY for other writers' changes where the server supports it;
        /// false (or a server without it) polls the `catalogue_change` log instead.
        public var usesListenNotify = true
        /// Whether to make the pg_trgm indexes that serve CONTAINS, ENDSWITH and LIKE where the
        /// server allows (installing pg_trgm where it is offered and the role may); false makes
        /// none, as on a server without pg_trgm, and those searches read every row, with the same
        /// answers. It drops none that exist already.
        ///
        /// ```swift
        /// var options = PostgresEngine.Options()
        /// options.usesTrigramIndexes = false
        /// let catalogue = try Catalogue.connect(to: "postgres://app@db:5432/catalogue", options: options)
        /// catalogue.postgres?.capabilities.trigramIndexes  // false in a new database
        /// ```
        public var usesTrigramIndexes = true
        /// Load the built-in countries and products into a new catalogue.
        public var seed = true
        /// An embedding app's own migrations, applied after the catalogue's and recorded in
        /// `app_migrations`.
        public var appMigrations: [Migration] = []
        /// Told when the engine has moved to another of the URL's hosts (the one it used
        /// stopped answering, or refused a write as read-only under `read-write` or `primary`):
        /// the host it left and the one it chose, on the thread of the call that met the
        /// failure. nil: nobody is told. `catalogue serve` logs it.
        ///
        /// ```swift
        /// options.hostChanged = { from, to in
        ///     print("now on \(to.endpointDescription) (\(from.endpointDescription) stopped serving)")
        /// }
        /// ```
        public var hostChanged: (@Sendable (_ from: PostgresTarget, _ to: PostgresTarget) -> Void)?

        /// The defaults: up to 8 connections, 10 s to connect, 15 s to wait for a free
        /// connection, 120 s for a statement, LISTEN/NOTIFY and trigram indexes where the server
        /// allows, the seed, no app migrations, and nobody told of a host change.
        public init() {}
    }

    /// What the server and the database support, found when connecting; the engine picks its
    /// fallbacks from it. What each engine offers, and what the catalogue does without it:
    /// `docs/Scaling.md`.
    ///
    /// ```swift
    /// let catalogue = try Catalogue.connect(to: "postgres://app@db:5432/catalogue")
    /// if let capabilities = catalogue.postgres?.capabilities, !capabilities.trigramIndexes {
    ///     print("CONTAINS reads every row on \(capabilities.serverVersion)")
    /// }
    /// ```
    public struct Capabilities: Sendable, Hashable {
        /// `SHOW server_version` (e.g. "15.8 (Debian 15.8-0+deb12u1)"); servers below 13 are
        /// refused when connecting.
        public let serverVersion: String
        /// LISTEN/NOTIFY works (not on CockroachDB, nor through a transaction-mode pooler), and
        /// ``Options/usesListenNotify`` allows it: other writers' changes arrive by notification
        /// as they commit. False: by polling the `catalogue_change` log every polling interval.
        public let listenNotify: Bool
        /// The database has the pg_trgm GIN indexes on the folded keys
        /// (`migrations/postgres/0003_trigram_indexes.sql`), made when connecting where pg_trgm
        /// is installed or can be and ``Options/usesTrigramIndexes`` allows: CONTAINS, ENDSWITH
        /// and LIKE use them. False: the same `LIKE … ESCAPE` reads every row of the table
        /// (a sequential scan), with the same rows in the same order, slower on large tables.
        public let trigramIndexes: Bool
    }
}
#endif
