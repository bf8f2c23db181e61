import Foundation

/// Lets several threads start their work at the same moment: each calls ``arriveAndWait()``,
/// and none returns before all `count` have arrived. (`DispatchQueue.concurrentPerform` runs
/// only as many iterations at once as there are cores, so its "concurrent" work may not
/// overlap at all.)
final class StartBarrier: @unchecked Sendable {
    // @unchecked: `arrived` is only touched while `condition` is locked.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(count: Int) {
        self.count = count
    }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived == count {
            condition.broadcast()
        } else {
            while arrived < count { condition.wait() }
        }
    }
}

/// Starts `count` threads running `body(index)` behind a ``StartBarrier`` and waits for all of
/// them to finish.
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = StartBarrier(count: count)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            barrier.arriveAndWait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    done.wait()
}

/// When each piece of work started and ended, to prove that work meant to overlap did.
final class IntervalLog: @unchecked Sendable {
    // @unchecked: `intervals` is only touched while `lock` is held.
    private let lock = NSLock()
    private var intervals: [(worker: Int, start: Date, end: Date)] = []

    func record(worker: Int, _ body: () throws -> Void) rethrows {
        let start = Date()
        defer {
            let end = Date()
            lock.withLock { intervals.append((worker, start, end)) }
        }
        try body()
    }

    /// How many pairs of intervals of different workers overlapped in time.
    var overlappingPairs: Int {
        let all = lock.withLock { intervals }
        var pairs = 0
        for (index, first) in all.enumerated() {
            for second in all[(index + 1)...] where first.worker != second.worker {
                if first.start < second.end && second.start < first.end { pairs += 1 }
            }
        }
        return pairs
    }

    var count: Int { lock.withLock { intervals.count } }
}
