import Foundation

/// When to interrupt a child process: at random moments spread over how long such a process
/// runs, measured once and shortened whenever one finishes before its interruption (the
/// machine's load changes during a test run, and a kill after the exit tests nothing).
///
/// ```swift
/// var schedule = KillSchedule(runTime: measured)
/// let child = try ChildProcess(["import", "products", csv], database: path)
/// let moment = schedule.waitForMoment(of: child)
/// child.kill()
/// if !child.waitForOutcome().killedBySignal { schedule.processFinishedFirst(moment) }
/// ```
struct KillSchedule {
    /// Moments are drawn from 0 to this many seconds after a process starts.
    private(set) var horizon: TimeInterval
    private var generator = SystemRandomNumberGenerator()

    /// A schedule over `runTime`, how long one whole run of the process took.
    init(runTime: TimeInterval) {
        horizon = runTime
    }

    /// The moment one process was interrupted.
    struct Moment {
        /// The random delay drawn.
        let delay: TimeInterval
        /// Whether the process was still running when the delay had passed.
        let wasRunning: Bool
        /// How long the process had run then (its whole run when it had exited).
        let runTime: TimeInterval
    }

    /// Waits a random delay within the horizon, or until `child` exits if that comes first.
    mutating func waitForMoment(of child: ChildProcess) -> Moment {
        let delay = Double.random(in: 0...horizon, using: &generator)
        let wasRunning = child.isRunning(after: delay)
        return Moment(delay: delay, wasRunning: wasRunning, runTime: Date().timeIntervalSince(child.started))
    }

    /// The process finished before its interruption: it had run at most this long, so later
    /// moments come within that.
    mutating func processFinishedFirst(_ moment: Moment) {
        horizon = min(horizon, moment.wasRunning ? moment.delay : moment.runTime)
    }
}
