#if PostgreSQL
import CatalogueCore
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL engine: a catalogue in a PostgreSQL database (15 or later), shared by every
/// process and machine that connects to it.
///
/// Opening connects once (so a server that is down, a wrong password or an unknown database is
/// one clear error naming the server, without its password), checks what the server supports
/// (``Capabilities``), migrates and seeds the database under an advisory lock, then starts a
/// connection pool:
/// concurrent readers run in parallel, each statement on a free connection.
///
/// ```swift
/// let catalogue = try Catalogue.connect(to: "postgres://app@127.0.0.1:5432/catalogue")
/// let colombia = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).first
/// ```
///
/// The engine's methods block the calling thread until the server answers. **Do not call the
/// catalogue's synchronous methods from `async` code on PostgreSQL**: use its `async` twins,
/// which run them on dispatch threads. (A Swift-concurrency thread blocked on the server is
/// one fewer to run the task that talks to it.)
public final class PostgresEngine: CatalogueEngine {
    /// Where the database is: of a list of hosts, the one it works on now (without
    /// ``PostgresTarget/alternatives``). It changes when that host stops answering, or stops
    /// taking writes where `target_session_attrs` asks for them, and another host fits.
    public var target: PostgresTarget { currentPool.target }
    /// What the server and this database support, found when connecting: the engine's fallbacks
    /// follow from it (`catalogue.postgres?.capabilities`).
    public let capabilities: Capabilities
    /// The schema holding the catalogue's tables: the first of the session's `search_path` that
    /// exists (`public` unless the URL's `options=-c search_path=NAME`, the role or the
    /// database chooses another), so that one database can hold several catalogues.
    ///
    /// ```swift
    /// try Catalogue.connect(to: "postgres://app@db/shared?options=-c%20search_path%3Dshop").postgres?.schema  // "shop"
    /// ```
    public let schema: String
    /// The URL's target, with every host it lists: where the engine chooses again.
    let requestedTarget: PostgresTarget
    /// The host the engine works on and its connection pool.
    let pool: Locked<PostgresHostPool>
    /// Choosing a host again: one at a time, and the pools it replaced.
    let hostChange = HostChange()
    /// The connections listening for other writers' changes, closed when the host changes so
    /// that they listen on the new one.
    let listenerConnections = Locked<[ObjectIdentifier: PostgresConnection]>([:])
    let changeHub = ChangeHub()
    /// Backend process ids of the pool's connections that wrote: their notifications are this
    /// catalogue's own commits, already published.
    let ownBackends = Locked<[PostgresConnection.ID: Int32]>([:])
    /// Transaction ids (xid8, as text) of this catalogue's write transactions, for the polled
    /// change log.
    let ownTransactions = Locked<Set<String>>([])

    public var name: String { "PostgreSQL" }
    public var location: String { target.description }

    /// Connects to `url` (`postgres://user:password@host:port/database`); see ``init(target:options:)``.
    public convenience init(url: String, options: Options = Options()) throws {
        try self.init(target: PostgresTarget(url: url), options: options)
    }

    /// Connects to `target`, checks the server, migrates and seeds the database, and starts the
    /// pool. Throws ``PostgresEngineError`` (one line naming the server) or ``MigrationError``.
    /// The target's ``PostgresTarget/connectTimeout`` (the URL's `connect_timeout`), when it
    /// has one, replaces the options'.
    ///
    /// With several hosts (``PostgresTarget/alternatives``), the first that answers and fits
    /// ``PostgresTarget/sessionAttributes`` is the catalogue's: the pool and the change listener
    /// connect to it. When it later stops answering, or refuses a write as read-only where
    /// `target_session_attrs` is `read-write` or `primary` (its primary failed over), the call
    /// that met it throws, and the hosts are tried again in the same way; the next call runs on
    /// the host chosen, and a change stream hears it (reporting a change of anything, since
    /// notifications may have been missed meanwhile).
    public init(target: PostgresTarget, options: Options = Options()) throws {
        var options = options
        if let timeout = target.connectTimeout { options.connectTimeout = timeout }
        var logger = Logger(label: "catalogue.postgres")
        logger.logLevel = .critical
        let tls = try PostgresTLS(target: target)
        let choosing = PostgresEngineContext(targetDescription: target.description, options: options, logger: logger, tls: tls)
        let (chosen, connection) = try Self.connectToFirstFitting(target, context: choosing)
        defer { Self.close(connection) }
        let requestedTarget = target
        let target = chosen
        let context = choosing.naming(target.description)
        self.requestedTarget = requestedTarget
        let runner = PostgresStatementRunner(target: .connection(connection), context: context)
        let server = try Self.checkServer(runner, target: target.description, options: options)
        self.schema = try Self.catalogueSchema(runner, target: target.description)
        let hasTrigramIndexes = try PostgresMigrator(migrations: PostgresResources.migrations, appMigrations: options.appMigrations)
            .prepare(runner, target: target.description, seed: options.seed, trigramIndexes: options.usesTrigramIndexes)
        self.capabilities = Capabilities(
            serverVersion: server.version, listenNotify: server.listenNotify, trigramIndexes: hasTrigramIndexes)
        pool = Locked(PostgresHostPool(target: target, context: context))
    }

    deinit {
        currentPool.shutDown()
        hostChange.shutDownReplacedPools()
    }

    /// The host the engine works on now, and its pool.
    var currentPool: PostgresHostPool { pool.withLock { $0 } }
    /// Options, logger and TLS, and the current host's description for messages.
    var context: PostgresEngineContext { currentPool.context }
    /// The current host's connection pool.
    var client: PostgresClient { currentPool.client }

    // MARK: - CatalogueEngine

    public func read<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        try inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { session in try body(session) }
    }

    /// Runs `body`'s statements each on any free connection of the pool. With several hosts,
    /// on one leased connection instead, which the pool must give within
    /// ``Options/leaseTimeout``, so that a host that went away is left for the next.
    /// Either way, a statement or lease that waits a second checks that the host answers at
    /// all, and fails at once with why when it does not (see ``Options/leaseTimeout``). When
    /// the pool could not log in because the role's password was rotated in the password file,
    /// `body` runs once more on a pool with the new password: its statements only read, but
    /// what else it does happens twice.
    public func reading<T>(_ body: (any CatalogueReading) throws -> T) throws -> T {
        try onCurrentHost { pool in
            guard !requestedTarget.alternatives.isEmpty else {
                return try body(PostgresSession(runner: PostgresStatementRunner(target: .pool(pool), context: pool.context)))
            }
            let lease = try ConnectionLease.acquire(from: pool, timeout: pool.context.options.leaseTimeout)
            defer { lease.release() }
            return try body(PostgresSession(runner: PostgresStatementRunner(target: .connection(lease.connection), context: pool.context)))
        }
    }

    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        // A write runs to its end, even one started inside a cancelled async read's body.
        try ReadCancellation.with(nil) { try writing(body) }
    }

    /// ``write(_:)``, with no read to stop.
    private func writing<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        var change: DatabaseChange?
        var stagedTables: Set<String> = []
        let result = try inTransaction("BEGIN") { session in
            let result = try body(session)
            change = session.change
            stagedTables = session.stagedTables
            if change != nil { try noteOwnTransaction(session) }
            return result
        }
        if !stagedTables.isEmpty {
            try? onCurrentHost { pool in
                let runner = PostgresStatementRunner(target: .pool(pool), context: pool.context)
                for table in stagedTables.sorted() { mergePendingIndexEntries(of: table, runner: runner) }
            }
        }
        if let change { changeHub.publish(change) }
        return result
    }

    public func purgeCaches() throws {}

    /// Runs `body` in a transaction begun by `begin` on one leased connection: committed when
    /// it returns, rolled back when it throws.
    func inTransaction<T>(_ begin: String, _ body: (PostgresSession) throws -> T) throws -> T {
        try onCurrentHost { pool in
            let lease = try ConnectionLease.acquire(from: pool, timeout: pool.context.options.leaseTimeout)
            defer { lease.release() }
            let session = PostgresSession(runner: PostgresStatementRunner(target: .connection(lease.connection), context: pool.context))
            try session.runner.execute(begin)
            let result: T
            do {
                result = try body(session)
            } catch {
                try? Self.ending(session, with: "ROLLBACK")
                throw error
            }
            try Self.ending(session, with: "COMMIT")
            return result
        }
    }

    /// Ends a transaction with `statement` (COMMIT or ROLLBACK), also for an `async` read whose
    /// task was cancelled meanwhile, which starts no other statement (``ReadCancellation``): the
    /// connection goes back to the pool outside any transaction.
    private static func ending(_ session: PostgresSession, with statement: String) throws {
        try ReadCancellation.with(nil) { try session.runner.execute(statement) }
    }

    /// Records that this transaction is this catalogue's: its connection's backend (for
    /// notifications) and its transaction id (for the polled log).
    func noteOwnTransaction(_ session: PostgresSession) throws {
        guard case .connection(let connection) = session.runner.target else { return }
        let sql = "SELECT pg_backend_pid(), pg_current_xact_id_if_assigned()::text"
        guard let row = try session.runner.rows(SQLFragment(sql)).first else { return }
        let cells = PostgresRecordRow(row, sql: sql)
        let pid = Int32(truncatingIfNeeded: try cells.decodeInteger(at: 0))
        ownBackends.withLock { $0[connection.id] = pid }
        if !capabilities.listenNotify, let xid = try cells.decodeOptionalText(at: 1) {
            ownTransactions.withLock { _ = $0.insert(xid) }
        }
    }

    // MARK: - Connecting

    /// One connection of its own (not the pool's), for the first checks, migrations, LISTEN.
    static func connect(_ target: PostgresTarget, context: PostgresEngineContext) throws -> PostgresConnection {
        do {
            return try attemptConnection(to: target, context: context)
        } catch {
            throw error.described
        }
    }

    /// Why a connection failed: the error to report, and the server's SQLSTATE when the server
    /// answered (nil when it could not be reached).
    struct ConnectionFailure: Error {
        let described: any Error
        let sqlState: String?

        /// Whether the server refused the login (SQLSTATE class 28: a wrong password, a role not
        /// allowed in); libpq then tries no other host.
        var refusedLogin: Bool { sqlState?.hasPrefix("28") ?? false }
    }

    /// One connection to `target`'s host alone (not its alternatives).
    static func attemptConnection(
        to target: PostgresTarget, context: PostgresEngineContext
    ) throws(ConnectionFailure) -> PostgresConnection {
        var configuration = target.connectionConfiguration(tls: context.tls.connection)
        configuration.options.connectTimeout = .seconds(context.options.connectTimeout.components.seconds)
        let logger = context.logger
        let settings = configuration
        do {
            return try BlockingBridge.run(
                timeout: context.options.connectTimeout + .seconds(2), target: target.description, what: "connecting"
            ) {
                try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger)
            }
        } catch PostgresEngineError.timedOut {
            throw ConnectionFailure(described: timedOut(target, context: context), sqlState: nil)
        } catch {
            let described = PostgresEngineError.describing(error, target: target.description, connecting: true)
            if case .cannotConnect(_, "timed out")? = described as? PostgresEngineError {
                throw ConnectionFailure(described: timedOut(target, context: context), sqlState: nil)
            }
            throw ConnectionFailure(described: described, sqlState: PostgresEngineError.sqlState(of: error))
        }
    }

    /// A connection that took longer than the connect timeout: how long, and how to wait longer.
    private static func timedOut(_ target: PostgresTarget, context: PostgresEngineContext) -> PostgresEngineError {
        let seconds = context.options.connectTimeout.components.seconds
        return PostgresEngineError.cannotConnect(
            target: target.description,
            reason: "timed out after \(seconds) s (to wait longer: connect_timeout=SECONDS in the URL, or PGCONNECT_TIMEOUT)")
    }

    static func close(_ connection: PostgresConnection) {
        _ = try? BlockingBridge.run(timeout: .seconds(5), target: "", what: "closing") {
            try await connection.close()
        }
    }

    /// The server's version (refused below 13) and whether LISTEN works (and is wanted). The
    /// trigram indexes are checked in the migrating transaction (``PostgresTrigramIndexes``).
    static func checkServer(
        _ runner: PostgresStatementRunner, target: String, options: Options
    ) throws -> (version: String, listenNotify: Bool) {
        let sql = "SELECT current_setting('server_version'), current_setting('server_version_num')::int"
        guard let row = try runner.rows(SQLFragment(sql)).first else {
            throw PostgresEngineError.unusable(target: target, reason: "the server did not say its version")
        }
        let cells = PostgresRecordRow(row, sql: sql)
        let version = try cells.decodeText(at: 0)
        guard try cells.decodeInteger(at: 1) >= 130_000 else {
            throw PostgresEngineError.unusable(target: target, reason: "PostgreSQL \(version) is too old (13 or later is needed)")
        }
        var listens = false
        if options.usesListenNotify {
            do {
                try runner.execute("LISTEN catalogue_capability_check")
                try runner.execute("UNLISTEN catalogue_capability_check")
                listens = true
            } catch {
                listens = false
            }
        }
        return (version, listens)
    }
}
#endif
