import Foundation

/// Runs `body` on a thread of its own, as part of the calling test's task. (Here, in the test
/// support library, so every test target that waits on servers or processes can use it.)
///
/// Swift Testing runs every test, synchronous ones too, on the cooperative thread pool, which has
/// one thread per core: two on a 2-core CI machine. A test that blocks for a long time (waiting
/// for child processes, a server, `Thread.sleep`) holds one of those threads, and two such tests
/// at once stall every async test of the process until one of them ends: in CI the PostgreSQL
/// engine tests sat still for minutes behind the crash-safety and load tests and failed their
/// time limits. The tests that run the built binary or wait on servers therefore block here
/// instead. `body` runs in the same task (through a task executor preference), so `#expect`,
/// `#require` and time limits still belong to the calling test.
///
/// ```swift
/// @Test func importWaits() async throws {
///     try await onOwnThread {
///         let result = try runner.run(["import", "products", csv])
///         #expect(result.status == 0)
///     }
/// }
/// ```
public func onOwnThread<T>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJobExecutor()) { try body() }
}

/// A task executor that runs each job on a new thread (a blocking test body is one job). A task
/// started with it as its preference does not wait for a thread of the cooperative pool.
///
/// ```swift
/// let writer = Task.detached(executorPreference: ThreadPerJobExecutor()) { try database.psql(slowTransaction) }
/// ```
public final class ThreadPerJobExecutor: TaskExecutor {
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
