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
        public var leaseTimeout: Duration = .seconds(15)
        /// How long one statement may take, waiting for its connection included; nil for no
        /// limit. Imports are not limited (their COPY runs as long as the file is long).
        public var statementTimeout: Duration? = .seconds(120)
        /// Whether to use LISTEN/NOTIFY for other writers' changes where the server supports it;
        /// false (or a server without it) polls the `catalogue_change` log instead.
        public var usesListenNotify = true
        /// Load the built-in countries and products into a new catalogue.
        public var seed = true
        /// An embedding app's own migrations, applied after the catalogue's and recorded in
        /// `app_migrations`.
        public var appMigrations: [Migration] = []

        public init() {}
    }

    /// What the server supports, found when connecting; the engine picks its fallbacks from it.
    public struct Capabilities: Sendable, Hashable {
        /// `SHOW server_version`.
        public let serverVersion: String
        /// LISTEN/NOTIFY works (not on CockroachDB, nor through a transaction-mode pooler), and
        /// the options allow it: other writers' changes arrive by notification; else by polling
        /// the change log.
        public let listenNotify: Bool
    }
}
#endif
