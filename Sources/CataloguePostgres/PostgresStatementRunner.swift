#if PostgreSQL
import CatalogueCore
import Logging
import PostgresNIO

/// Where a session's statements run: any connection of the pool, statement by statement, or
/// one connection (leased from the pool, or opened on its own) for a transaction.
enum PostgresStatementTarget: Sendable {
    case pool(PostgresHostPool)
    case connection(PostgresConnection)
}

/// Runs SQL for a synchronous caller: each statement through the blocking bridge, its rows
/// collected and returned to the calling thread, errors turned into one line naming the server.
struct PostgresStatementRunner: Sendable {
    let target: PostgresStatementTarget
    let context: PostgresEngineContext

    /// Runs `query` and returns all its rows.
    func rows(_ query: SQLFragment) throws -> [PostgresRow] {
        for argument in query.arguments {
            if case .text(let text) = argument, PostgresDialect.holdsNUL(text) {
                throw FetchRequestError.unsupported("text with the NUL character (U+0000), which PostgreSQL text cannot hold")
            }
        }
        let postgresQuery = query.postgresQuery
        return try run(what: query.sql) { [target, context] in
            switch target {
            case .pool(let pool):
                return try await pool.client.query(postgresQuery, logger: context.logger).collect()
            case .connection(let connection):
                // postgres-nio (1.33) never answers a query written to a connection whose channel
                // has closed (the handler that would fail it has left the pipeline): a transaction
                // whose server died (a crash during an import, which has no statement deadline)
                // would wait for ever on its ROLLBACK. A query the connection still held when it
                // closed is failed by postgres-nio itself.
                guard !connection.isClosed else {
                    throw PostgresEngineError.connectionFailure(
                        target: context.targetDescription, reason: PostgresEngineError.serverClosedConnection, connecting: false)
                }
                return try await connection.query(postgresQuery, logger: context.logger).collect()
            }
        }
    }

    /// Runs a statement whose rows do not matter.
    func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        _ = try rows(SQLFragment(sql, arguments))
    }

    /// Runs a script of several statements (a migration), one statement after the other.
    func executeScript(_ script: String) throws {
        for statement in SQLScript.statements(in: script) {
            try execute(statement)
        }
    }

    /// The first column of the first row as an integer (0 when there is no row).
    func integer(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> Int64 {
        guard let row = try rows(SQLFragment(sql, arguments)).first else { return 0 }
        return try PostgresRecordRow(row, sql: sql).decodeOptionalInteger(at: 0) ?? 0
    }

    /// Runs `operation` through the blocking bridge with the statement deadline, turning
    /// postgres-nio's errors into the engine's. On the pool, a statement that waits a while
    /// checks that the host answers at all (``HostProbe``). The statement of an `async` read
    /// whose task has been cancelled is not started (``ReadCancellation``).
    func run<T: Sendable>(what: @autoclosure () -> String, _ operation: @escaping @Sendable () async throws -> T) throws -> T {
        if ReadCancellation.current?.isCancelled == true { throw CancellationError() }
        var probe: HostProbe?
        if case .pool(let pool) = target { probe = pool.probe }
        do {
            return try BlockingBridge.run(
                timeout: context.options.statementTimeout, target: context.targetDescription, what: what(), probe: probe, operation)
        } catch {
            throw PostgresEngineError.describing(error, target: context.targetDescription)
        }
    }
}

/// What every part of an engine needs to know: where the server is (for messages), its
/// options, its logger.
struct PostgresEngineContext: Sendable {
    let targetDescription: String
    let options: PostgresEngine.Options
    let logger: Logger
    /// The TLS settings of every connection.
    let tls: PostgresTLS

    /// The same options, logger and TLS, with messages naming `description` (another host, or
    /// the URL's list of hosts).
    func naming(_ description: String) -> PostgresEngineContext {
        PostgresEngineContext(targetDescription: description, options: options, logger: logger, tls: tls)
    }
}
#endif
