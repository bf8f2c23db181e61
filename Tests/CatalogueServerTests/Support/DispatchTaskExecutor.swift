#if Server
import Dispatch

/// Runs tasks on a concurrent GCD queue instead of Swift's cooperative pool.
///
/// The whole test process shares the cooperative pool (as many threads as cores, two here), and
/// other suites' synchronous tests occupy it while they wait for child processes or the
/// database. A live server under test whose tasks prefer this executor keeps answering however
/// busy the pool is (`withTaskExecutorPreference`; child tasks inherit the preference).
final class DispatchTaskExecutor: TaskExecutor {
    static let shared = DispatchTaskExecutor()

    private let queue = DispatchQueue(label: "CatalogueServerTests.executor", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
#endif
