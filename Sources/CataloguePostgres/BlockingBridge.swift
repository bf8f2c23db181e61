#if PostgreSQL
import Dispatch
import Foundation

/// Runs postgres-nio's `async` calls for the engine's blocking methods: the calling thread
/// waits on a semaphore while a detached task, on the engine's own threads
/// (``BridgeExecutor``), does the work.
///
/// Meant for threads that are not Swift concurrency's: the CLI's main thread, an app's own
/// threads, the dispatch threads on which ``Catalogue``'s `async` methods run the synchronous
/// ones. From `async` code it does not deadlock (the task does not need the caller's pool),
/// but it holds one of the cooperative pool's few threads for the whole round trip: use the
/// catalogue's `async` methods there.
enum BlockingBridge {
    /// Runs `operation` and waits for its result, at most `timeout` (nil: no limit). On timeout
    /// the task is cancelled and ``PostgresEngineError/timedOut(target:what:after:)`` thrown.
    /// With a `probe`, a wait that lasts ``HostProbe/interval`` asks it whether the host answers
    /// at all; when it does not, the task is cancelled and the probe's error thrown.
    static func run<T: Sendable>(
        timeout: Duration?, target: String, what: @autoclosure () -> String, probe: HostProbe? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        let task = Task.detached(executorPreference: BridgeExecutor.shared) {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            box.set(result)
            semaphore.signal()
        }
        try wait(for: semaphore, of: task, timeout: timeout, probe: probe, target: target, what: what())
        return try box.get()
    }

    /// Waits for `semaphore`, which `task` signals, at most `timeout` (nil: no limit). With a
    /// `probe`, once the wait has lasted ``HostProbe/interval``, checks (once) that the host
    /// answers. When the time runs out (``PostgresEngineError/timedOut(target:what:after:)``)
    /// or the probe throws, cancels `task` and throws.
    static func wait(
        for semaphore: DispatchSemaphore, of task: Task<Void, Never>, timeout: Duration?, probe: HostProbe?,
        target: String, what: @autoclosure () -> String
    ) throws {
        let signalled: Bool
        do {
            signalled = try wait(for: semaphore, timeout: timeout, probe: probe)
        } catch {
            task.cancel()
            throw error
        }
        if !signalled, let timeout {
            task.cancel()
            throw PostgresEngineError.timedOut(target: target, what: what(), after: timeout)
        }
    }

    /// How often a wait that has checked the host looks again at what the probe last found.
    static let probeRecheckInterval: Duration = .milliseconds(100)

    /// Waits for `semaphore`, at most `timeout` (nil: no limit); false when the time ran out.
    /// With a `probe`, once the wait has lasted ``HostProbe/interval``, checks that the host
    /// answers, and throws the probe's error when it does not; after that, every
    /// ``probeRecheckInterval``, throws what another call's dial found since
    /// (``HostProbe/checkLastAnswer()``): a host gone, or a password rotated, which the pool
    /// waited for cannot log in with.
    private static func wait(for semaphore: DispatchSemaphore, timeout: Duration?, probe: HostProbe?) throws -> Bool {
        let deadline = timeout.map { DispatchTime.now() + $0.dispatchInterval }
        if let probe {
            var probeTime = DispatchTime.now() + HostProbe.interval.dispatchInterval
            var checked = false
            while true {
                if semaphore.wait(timeout: deadline.map { min($0, probeTime) } ?? probeTime) == .success { return true }
                if let deadline, DispatchTime.now() >= deadline { return false }
                if checked {
                    try probe.checkLastAnswer()
                } else {
                    try probe.check()
                    checked = true
                }
                probeTime = DispatchTime.now() + probeRecheckInterval.dispatchInterval
            }
        }
        guard let deadline else {
            semaphore.wait()
            return true
        }
        return semaphore.wait(timeout: deadline) == .success
    }
}

/// A result written by one thread before it signals, read by another after it waited.
final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) {
        lock.withLock { self.result = result }
    }

    func get() throws -> T {
        guard let result = lock.withLock({ self.result }) else {
            preconditionFailure("ResultBox read before it was set")
        }
        return try result.get()
    }
}

extension Duration {
    /// The duration for `DispatchSemaphore.wait(timeout:)`.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
#endif
