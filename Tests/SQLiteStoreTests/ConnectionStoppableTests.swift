import Foundation
import SQLiteStore
import Synchronization
import Testing

/// `Connection.stoppable(when:every:_:)`: SQLite's progress handler stops statements once asked to.
@Suite("Stoppable statements")
struct ConnectionStoppableTests {
    /// A statement that never ends on its own: it counts up forever.
    static let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"

    // Ten minutes: the limit catches a statement that is never stopped (it would run forever), and
    // with every suite in one process a test can wait minutes for a thread before it starts.
    @Test("A running statement stops with SQLITE_INTERRUPT once asked; the connection then runs statements as before", .timeLimit(.minutes(10)))
    func stopsARunningStatement() throws {
        let db = try Connection(path: ":memory:")
        let stop = AtomicFlag()
        let asked = AtomicCounter()
        let stopper = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            stop.set()
        }
        stopper.start()
        let error = #expect(throws: DatabaseError.self) {
            try db.stoppable(when: {
                asked.increment()
                return stop.isSet
            }) {
                let _: Int? = try db.scalar(Self.endless)
            }
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
        let asksWhileRunning = asked.value
        #expect(asksWhileRunning > 1, "asked while the statement ran, not once")

        // The handler is gone: a statement of many instructions runs to its end.
        let count: Int? = try db.scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT count(*) FROM n")
        #expect(count == 200_000)
        let asksAfter = asked.value
        #expect(asksAfter == asksWhileRunning)
    }

    @Test("Not asked to stop, statements run to their end; nested calls keep the outer check")
    func runsWhenNotStopped() throws {
        let db = try Connection(path: ":memory:")
        let outerAsked = AtomicCounter()
        let innerAsked = AtomicCounter()
        let count: Int? = try db.stoppable(when: { outerAsked.increment(); return false }) {
            try db.stoppable(when: { innerAsked.increment(); return true }) {
                try db.scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n")
            }
        }
        #expect(count == 100_000)
        let (outer, inner) = (outerAsked.value, innerAsked.value)
        #expect(outer > 0)
        #expect(inner == 0)
    }
}

/// A flag one thread sets and another reads.
private final class AtomicFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// A count several threads may add to.
private final class AtomicCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}
