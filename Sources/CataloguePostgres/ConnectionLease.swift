#if PostgreSQL
import Dispatch
import Foundation
import PostgresNIO

/// One connection of the pool, held by a synchronous caller for a transaction: a task leases
/// it and waits, while the caller's thread runs statements on it, until ``release()``.
final class ConnectionLease: @unchecked Sendable {
    /// The leased connection.
    let connection: PostgresConnection
    private let released: AsyncStream<Void>.Continuation

    private init(connection: PostgresConnection, released: AsyncStream<Void>.Continuation) {
        self.connection = connection
        self.released = released
    }

    /// What a ``PostgresEngineError/timedOut(target:what:after:)`` says was waited for when the
    /// pool had no connection to give in time.
    static let waitingForConnection = "waiting for a connection"

    /// Leases a connection of `pool`, waiting at most `timeout` for one (a pool whose server is
    /// gone waits for ever otherwise). A wait that lasts ``HostProbe/interval`` checks that the
    /// host answers at all (``HostProbe``), and throws why not at once.
    static func acquire(from pool: PostgresHostPool, timeout: Duration?) throws -> ConnectionLease {
        let client = pool.client
        let target = pool.context.targetDescription
        let (releasedStream, released) = AsyncStream<Void>.makeStream()
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<PostgresConnection>()
        let task = Task.detached(executorPreference: BridgeExecutor.shared) {
            do {
                try await client.withConnection { connection in
                    box.set(.success(connection))
                    semaphore.signal()
                    // Held until released (or this task is cancelled).
                    for await _ in releasedStream {}
                }
            } catch {
                box.set(.failure(error))
                semaphore.signal()
            }
        }
        try BlockingBridge.wait(
            for: semaphore, of: task, timeout: timeout, probe: pool.probe, target: target, what: Self.waitingForConnection)
        do {
            return ConnectionLease(connection: try box.get(), released: released)
        } catch {
            throw PostgresEngineError.describing(error, target: target)
        }
    }

    /// Gives the connection back to the pool.
    func release() {
        released.finish()
    }
}
#endif
