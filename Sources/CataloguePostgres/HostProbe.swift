#if PostgreSQL
import CatalogueCore
import Foundation

/// Whether a pool's host answers at all, asked when a call has waited a while for the pool: a
/// connection of its own, made (within the connect timeout) and closed at once.
///
/// postgres-nio's pool keeps a call waiting while it retries a host that refuses connections
/// (for a minute, or the lease timeout), then keeps backing off for up to a minute after the
/// host is back. A probe that cannot connect ends the wait with its reason ("connection
/// refused"), and is remembered: calls within ``interval`` of it fail at once with the same
/// error, later ones dial again, and once a dial answers the engine starts a new pool (see
/// `PostgresEngine.availablePool(_:)`). One dial at a time and one per ``interval`` at most,
/// however many calls wait.
///
/// A refused login (SQLSTATE class 28: the role's password changed, or it may no longer log
/// in) counts as out of reach too: the pool cannot make a connection either, and a call would
/// otherwise wait for the pool's circuit breaker (a minute) or the lease timeout, and be told
/// only that no connection came. It ends with the server's reason ("password authentication
/// failed for user …"), and the pool is renewed once a dial logs in again. When the password
/// came from the password file and the file now gives another (it was rotated there, where
/// libpq would read it for its next connection), the next dial uses that one, and so does the
/// new pool: the catalogue goes on without a restart. Every call that was waiting for the old
/// pool (which cannot log in any more) stops waiting with that refusal and runs again at once
/// on the new pool (`PostgresEngine.onCurrentHost(_:)`, ``isRenewal(_:)``).
///
/// ```swift
/// try pool.probe.check()  // throws "cannot connect to postgres://…: connection refused (is the server running?)"
/// ```
final class HostProbe: Sendable {
    /// How long a call waits for the pool before the host is probed, and how long a probe's
    /// answer stands before the next call dials again.
    static let interval: Duration = .seconds(1)

    private struct State {
        /// When the last dial began.
        var lastDial: ContinuousClock.Instant?
        /// Whether a dial is under way (one that times out takes the connect timeout).
        var dialling = false
        /// Why the host could not be reached (or refused the login) when last dialled; nil
        /// when it answered (or before the first dial).
        var failure: (any Error)?
        /// What the next dial connects to: the pool's target, or the same with the password
        /// its password file gave once the server refused the pool's.
        var target: PostgresTarget
        /// The error of the dial that found the password file's new password: from then on,
        /// what every call waiting for the pool (whose password is the old one) is told
        /// (``check(renewing:)``).
        var renewal: PostgresEngineError?
    }

    private let context: PostgresEngineContext
    private let state: Locked<State>

    /// `target`: the pool's.
    init(target: PostgresTarget, context: PostgresEngineContext) {
        self.context = context
        state = Locked(State(target: target))
    }

    /// What a new pool for this host connects to: the pool's target, with the password file's
    /// new password once the server refused the old one.
    var target: PostgresTarget { state.withLock { $0.target } }

    /// Whether the last dial found the host out of reach (or refusing the login), or the pool's
    /// password is no longer the password file's.
    var foundUnreachable: Bool { state.withLock { $0.failure != nil || $0.renewal != nil } }

    /// Throws why the host cannot be reached, dialling it unless a dial is under way or began
    /// less than ``interval`` ago (then the last answer is given). A host that answers but has
    /// no connection slot free is reachable here: the pool's own connections may still serve.
    /// One that refuses the login is not: the pool cannot log in either.
    ///
    /// Once a dial found the password file's new password, the pool cannot log in whatever a
    /// later dial says: a call waiting for it is told so at once, without a dial, unless it is
    /// `renewing` the pool (`PostgresEngine.availablePool(_:)`), which dials with the new
    /// password to see that it logs in.
    func check(renewing: Bool = false) throws {
        while renewing, state.withLock({ $0.dialling && $0.renewal != nil }) {
            // Another call's dial with the new password is under way: its answer, not the
            // refusal of the old one. (A host out of reach is still said at once.)
            Thread.sleep(forTimeInterval: 0.02)
        }
        let now = ContinuousClock.now
        let recent = state.withLock { state -> (any Error)?? in
            if !renewing, let renewal = state.renewal { return .some(renewal) }
            if state.dialling { return .some(state.failure) }
            if let last = state.lastDial, now - last < Self.interval { return .some(state.failure) }
            state.lastDial = now
            state.dialling = true
            return .none
        }
        if case .some(let failure) = recent {
            if let failure { throw failure }
            return
        }
        let failure = dial()
        state.withLock { state in
            state.failure = failure
            state.dialling = false
        }
        if let failure { throw failure }
    }

    /// Throws what the last dial found, without dialling: the password file's new password
    /// (the pool cannot log in), or, unless a dial is under way, the host out of reach. For a
    /// call that has checked once and goes on waiting, so that what another call's dial finds
    /// ends its wait too.
    func checkLastAnswer() throws {
        let answer = state.withLock { state -> (any Error)? in
            if let renewal = state.renewal { return renewal }
            return state.dialling ? nil : state.failure
        }
        if let answer { throw answer }
    }

    /// Connects and closes; the error when the host could not be reached, is shutting down or
    /// starting up (SQLSTATE class 57P), or refused the login (class 28); nil when it answered.
    /// A refused login whose password came from the password file reads the file again: when
    /// it gives another password now, the next dial uses it, at once (see ``renewTarget(_:refused:)``).
    private func dial() -> (any Error)? {
        let target = self.target
        do {
            PostgresEngine.close(try PostgresEngine.attemptConnection(to: target, context: context))
            return nil
        } catch {
            guard let code = error.sqlState else { return error.described }
            if error.refusedLogin, let renewed = target.withPasswordFileReread() {
                return renewTarget(renewed, refused: error.described)
            }
            return code.hasPrefix("57P") || error.refusedLogin ? error.described : nil
        }
    }

    /// Makes `renewed` the target of the next dial, which the next call makes at once (not
    /// after ``interval``), and returns `refused` saying so. The calls that waited for the pool
    /// get it (``isRenewal(_:)``) and run again on a pool renewed with the new password (see
    /// `PostgresEngine.availablePool(_:)`); a call that cannot throws it.
    private func renewTarget(_ renewed: PostgresTarget, refused: any Error) -> any Error {
        var reported = refused
        if case .cannotConnect(let target, let reason)? = refused as? PostgresEngineError {
            reported = PostgresEngineError.cannotConnect(
                target: target, reason: reason + "; the password file now gives another password for the role, which the next call uses")
        }
        state.withLock { state in
            state.target = renewed
            // As if this dial began an interval ago: the next call dials again at once.
            state.lastDial = ContinuousClock.now - Self.interval
            state.renewal = reported as? PostgresEngineError
        }
        return reported
    }

    /// Whether `error` is the one a dial of this probe gave when it found the password file's
    /// new password. Only a call waiting for the pool is told it, so the call's statement never
    /// got a connection of this pool: it may run again on the renewed one.
    func isRenewal(_ error: any Error) -> Bool {
        state.withLock { state in
            guard let renewal = state.renewal else { return false }
            return (error as? PostgresEngineError) == renewal
        }
    }
}
#endif
