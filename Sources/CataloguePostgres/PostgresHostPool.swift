#if PostgreSQL
import Logging
import PostgresNIO

/// The host a PostgreSQL catalogue works on, and its connection pool (postgres-nio's
/// `PostgresClient`, run on the engine's threads). The engine holds one at a time and replaces
/// it when the host stops fitting (see `PostgresEngine.chooseHostAgain(replacing:)`), or with a
/// new one for the same host when it answers again after its ``probe`` found it out of reach.
///
/// ```swift
/// let pool = PostgresHostPool(target: chosen, context: context)
/// try await pool.client.query("SELECT 1", logger: context.logger)
/// pool.shutDown()
/// ```
final class PostgresHostPool: Sendable {
    /// The host, without the URL's other hosts.
    let target: PostgresTarget
    /// Options, logger, TLS, and this host's description for messages.
    let context: PostgresEngineContext
    /// The pool.
    let client: PostgresClient
    /// Whether the host answers at all, asked when a call has waited a while for the pool.
    let probe: HostProbe
    private let task: Task<Void, Never>

    /// Starts a pool of connections to `target`, with `context`'s options.
    init(target: PostgresTarget, context: PostgresEngineContext) {
        self.target = target
        self.context = context
        var configuration = target.clientConfiguration(tls: context.tls.client)
        configuration.options.maximumConnections = context.options.maximumConnections
        configuration.options.connectTimeout = context.options.connectTimeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: context.logger)
        self.client = client
        probe = HostProbe(target: target, context: context)
        task = Task.detached(executorPreference: BridgeExecutor.shared) { await client.run() }
    }

    /// Closes the pool's connections; a statement still running on one fails.
    func shutDown() {
        task.cancel()
    }
}
#endif
