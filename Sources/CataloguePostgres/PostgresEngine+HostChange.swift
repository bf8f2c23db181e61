#if PostgreSQL
import Foundation
import PostgresNIO

/// Following a primary that fails over: with several hosts in the URL, a host that stops
/// answering, or that refuses a write as read-only where `target_session_attrs` asks for
/// `read-write` or `primary`, is replaced by the next that fits, chosen as when the catalogue
/// opened (``connectToFirstFitting(_:context:)``).
///
/// The call that met the failure throws its error as before (it may have been a write, which
/// is not repeated); the next call runs on the host chosen. Calls that fail together choose
/// once, and a failed choice is not tried again for a second, so a host list that is all down
/// is not dialled by every request. The replaced pool is shut down after the statement
/// deadline, so that transactions still running on it (the old primary may be up, read-only)
/// can finish; change streams reconnect to the new host.
///
/// ```swift
/// let catalogue = try Catalogue.connect(to: "postgres://app@db1,db2/catalogue?target_session_attrs=read-write")
/// // db1 is demoted, db2 promoted: the next write throws "cannot execute INSERT in a read-only transaction",
/// // the one after it lands on db2.
/// catalogue.postgres?.target.endpointDescription  // "db2:5432"
/// ```
extension PostgresEngine {
    /// The state of choosing a host again: one choice at a time, when the last one was, and the
    /// pools replaced.
    final class HostChange: @unchecked Sendable {
        // @unchecked: every stored property is read and written while `lock` is held.
        let lock = NSLock()
        var lastAttempt: ContinuousClock.Instant?
        var replaced: [PostgresHostPool] = []

        /// Shuts down the pools replaced and not yet shut down (when the engine goes away).
        func shutDownReplacedPools() {
            let pools = lock.withLock { replaced }
            pools.forEach { $0.shutDown() }
        }
    }

    /// How long after a failed choice the next may be made.
    static let hostChoiceInterval: Duration = .seconds(1)

    /// Runs `body` on the current host and pool (see ``availablePool(_:)``); when it throws an
    /// error that means the host no longer serves this catalogue, chooses a host again before
    /// rethrowing it.
    ///
    /// When the pool's login was refused while `body` waited for a connection and the password
    /// file now gives another password (``HostProbe/isRenewal(_:)``), `body` runs once more on
    /// a pool renewed with it. That error comes only from waiting for the pool: for a lease,
    /// before anything ran on it (transactions, imports); for a statement on the pool, in
    /// `reading`, whose statements only read. A write's statements run on its lease and never
    /// wait for the pool, so no statement of a write runs twice.
    func onCurrentHost<T>(_ body: (PostgresHostPool) throws -> T) throws -> T {
        var pool = currentPool
        do {
            pool = try availablePool(pool)
            do {
                return try body(pool)
            } catch where pool.probe.isRenewal(error) {
                pool = try availablePool(pool)
                return try body(pool)
            }
        } catch {
            if !requestedTarget.alternatives.isEmpty, Self.meansAnotherHost(error, attributes: requestedTarget.sessionAttributes) {
                chooseHostAgain(replacing: pool)
            }
            throw error
        }
    }

    /// `pool`, unless its ``HostProbe`` found its host out of reach (or refusing the login):
    /// then the probe's error (within ``HostProbe/interval`` of that dial, without dialling),
    /// or, when a new dial answers, a new pool for the same host, whose connections are made at
    /// once (the old one's may be backing off for up to a minute), with the password the
    /// probe's dial used (the password file's new one, after a rotation). The old pool is
    /// retired as a replaced one is.
    func availablePool(_ pool: PostgresHostPool) throws -> PostgresHostPool {
        guard pool.probe.foundUnreachable else { return pool }
        // Another call renewed or replaced it meanwhile.
        let current = currentPool
        if current !== pool { return current }
        try pool.probe.check(renewing: true)
        hostChange.lock.withLock {
            guard currentPool === pool else { return }
            replace(pool, with: PostgresHostPool(target: pool.probe.target, context: pool.context))
        }
        return currentPool
    }

    /// Makes `new` the current pool in place of `old`, which is shut down once a statement
    /// started on it would have reached its deadline. Called with `hostChange.lock` held.
    private func replace(_ old: PostgresHostPool, with new: PostgresHostPool) {
        pool.withLock { $0 = new }
        hostChange.replaced.append(old)
        retire(old)
    }

    /// Whether `error` says the host cannot serve a catalogue that wants `attributes`: it
    /// could not be reached or closed the connection, shut down or is starting, or (for
    /// `read-write` and `primary`) refused a write as read-only (SQLSTATE 25006).
    static func meansAnotherHost(_ error: any Error, attributes: PostgresSessionAttributes) -> Bool {
        guard let error = PostgresEngineError.describing(error, target: "") as? PostgresEngineError else { return false }
        if error.isDatabaseUnavailable { return true }
        guard case .server(_, _, let code) = error else { return false }
        return code == "25006" && (attributes == .readWrite || attributes == .primary)
    }

    /// Chooses among the URL's hosts again, unless another call already replaced `failed` or
    /// a choice was made less than ``hostChoiceInterval`` ago; when another host fits, makes its
    /// pool the current one.
    func chooseHostAgain(replacing failed: PostgresHostPool) {
        let replaced = hostChange.lock.withLock { () -> Bool in
            guard currentPool === failed else { return false }
            let now = ContinuousClock.now
            if let last = hostChange.lastAttempt, now - last < Self.hostChoiceInterval { return false }
            hostChange.lastAttempt = now
            let choosing = failed.context.naming(requestedTarget.description)
            guard let (chosen, connection) = try? Self.connectToFirstFitting(requestedTarget, context: choosing) else { return false }
            Self.close(connection)
            // The same host again (it restarted): its pool reconnects by itself, or, when its
            // probe found it out of reach, is renewed by the next call (availablePool(_:)).
            guard chosen.endpointDescription != failed.target.endpointDescription else { return false }
            replace(failed, with: PostgresHostPool(target: chosen, context: failed.context.naming(chosen.description)))
            return true
        }
        guard replaced else { return }
        failed.context.options.hostChanged?(failed.target, target)
        // Listening on the old host would hear nothing more: each listener reconnects.
        let listeners = listenerConnections.withLock { Array($0.values) }
        for connection in listeners {
            connection.close().whenComplete { _ in }
        }
    }

    /// Shuts `pool` down once a statement started on it would have reached its deadline.
    private func retire(_ pool: PostgresHostPool) {
        let grace = pool.context.options.statementTimeout ?? .seconds(120)
        let hostChange = hostChange
        Task.detached(executorPreference: BridgeExecutor.shared) {
            try? await Task.sleep(for: grace)
            pool.shutDown()
            hostChange.lock.withLock { hostChange.replaced.removeAll { $0 === pool } }
        }
    }
}
#endif
