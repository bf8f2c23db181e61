#if PostgreSQL
import Foundation

/// The threads on which the PostgreSQL engine's `async` work runs (postgres-nio's pool, each
/// statement's task, COPY, LISTEN): threads of its own, not Swift concurrency's cooperative
/// pool.
///
/// The engine's methods are blocking: a caller's thread waits on a semaphore for a task that
/// talks to the server. Were that task on the cooperative pool, callers blocking the pool's
/// few threads (two on a 2-core machine; a test runner's synchronous tests do) would starve
/// it: a deadlock. On these threads the task runs whoever waits. The jobs are short (they
/// await the network, they never block), so a few threads serve many connections.
final class BridgeExecutor: TaskExecutor, @unchecked Sendable {
    /// The engine's executor, shared by every engine of the process.
    static let shared = BridgeExecutor(threads: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "catalogue.postgres.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count {
                condition.wait()
            }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif
