#if PostgreSQL
import PostgresNIO

/// Choosing among several hosts (libpq's `postgres://app@a:5432,b:5433/db`) as libpq does: in
/// turn (in a random order with `load_balance_hosts=random`), the first that answers and fits
/// `target_session_attrs`; a host that cannot be reached, or refuses for another reason than
/// the login (starting up, too many clients), passes to the next, while a refused login (a
/// wrong password) ends the search, as in libpq. None fitting is one line naming each host and
/// why.
///
/// ```swift
/// let target = try PostgresTarget(url: "postgres://app@a.example,b.example/catalogue?target_session_attrs=read-write")
/// let (chosen, connection) = try PostgresEngine.connectToFirstFitting(target, context: context)
/// chosen.endpointDescription  // "b.example:5432" when a.example is a standby
/// ```
extension PostgresEngine {
    /// The first of `target`'s hosts that answers and fits its session attributes, connected.
    static func connectToFirstFitting(
        _ target: PostgresTarget, context: PostgresEngineContext
    ) throws -> (target: PostgresTarget, connection: PostgresConnection) {
        // libpq 16's load_balance_hosts=random: every host once, in a random order.
        let hosts = target.loadBalancesHosts ? target.hosts.shuffled() : target.hosts
        let attributes = target.sessionAttributes
        if hosts.count == 1, attributes == .any {
            return (hosts[0], try connect(hosts[0], context: context))
        }
        var reasons: [(host: PostgresTarget, reason: String, reached: Bool)] = []
        // prefer-standby: the first host that answered, used when no standby does.
        var fallback: (target: PostgresTarget, connection: PostgresConnection)?
        for host in hosts {
            let connection: PostgresConnection
            do {
                connection = try attemptConnection(to: host, context: context)
            } catch {
                guard !error.refusedLogin, hosts.count > 1 else {
                    if let fallback { close(fallback.connection) }
                    throw error.described
                }
                reasons.append((host, Self.reason(error.described), false))
                continue
            }
            let state: (inRecovery: Bool, readOnly: Bool)
            do {
                state = try serverState(connection, context: context, target: host)
            } catch {
                close(connection)
                if let fallback { close(fallback.connection) }
                throw error
            }
            if attributes.accepts(inRecovery: state.inRecovery, readOnly: state.readOnly) {
                if let fallback { close(fallback.connection) }
                return (host, connection)
            }
            if attributes == .preferStandby, fallback == nil {
                fallback = (host, connection)
                continue
            }
            close(connection)
            reasons.append((host, attributes.mismatch(inRecovery: state.inRecovery, readOnly: state.readOnly), true))
        }
        if let fallback { return fallback }
        if hosts.count == 1, let only = reasons.first {
            throw PostgresEngineError.cannotConnect(
                target: target.description, reason: "the server is \(only.reason) (target_session_attrs=\(attributes.rawValue))")
        }
        let each = reasons.map { "\($0.host.endpointDescription): \($0.reason)" }.joined(separator: "; ")
        let summary = reasons.contains(where: \.reached)
            ? "no host is \(attributes.wanted) (target_session_attrs=\(attributes.rawValue))"
            : "no host could be reached"
        throw PostgresEngineError.cannotConnect(target: target.description, reason: "\(summary): \(each)")
    }

    /// Whether the server is a standby (in recovery) and whether it refuses writes by default.
    private static func serverState(
        _ connection: PostgresConnection, context: PostgresEngineContext, target: PostgresTarget
    ) throws -> (inRecovery: Bool, readOnly: Bool) {
        let sql = "SELECT pg_is_in_recovery()::int, (current_setting('transaction_read_only') = 'on')::int"
        let runner = PostgresStatementRunner(
            target: .connection(connection),
            context: context.naming(target.description))
        guard let row = try runner.rows(SQLFragment(sql)).first else {
            throw PostgresEngineError.unusable(target: target.description, reason: "the server did not say whether it is a standby")
        }
        let cells = PostgresRecordRow(row, sql: sql)
        return (try cells.decodeInteger(at: 0) != 0, try cells.decodeInteger(at: 1) != 0)
    }

    /// The reason of a failed connection, without the target it names (said once per host).
    private static func reason(_ error: any Error) -> String {
        if let error = error as? PostgresEngineError, case .cannotConnect(_, let reason) = error { return reason }
        return "\(error)"
    }
}
#endif
