#if Server
import Foundation
import Testing
@testable import CatalogueServer

/// ``ExportStream``: blocks in order, at most `capacity` on their way, and an export that stops
/// when its client stalls or goes away.
@Suite("Export stream")
struct ExportStreamTests {
    @Test("Blocks arrive in order; the sender waits while `capacity` are undelivered")
    func order() async throws {
        // A stall timeout longer than any wait for this task under the whole suite's load.
        let stream = ExportStream(capacity: 2, stallTimeout: .seconds(600))
        let sent = Thread.detachedSending(stream, count: 10)
        var received: [[UInt8]] = []
        for await block in stream.blocks {
            // Never more than the capacity sent ahead of what was delivered.
            #expect(sent.count() <= received.count + 2 + 1)
            received.append(block)
            stream.delivered()
        }
        #expect(received == (0..<10).map { [UInt8($0)] })
    }

    @Test("A client that reads nothing stalls the export, which then stops; one that goes away stops it at once")
    func stops() throws {
        let stalled = ExportStream(capacity: 1, stallTimeout: .milliseconds(100))
        try stalled.send([1])
        #expect(throws: ExportStream.Stop.stalled) { try stalled.send([2]) }
        let cancelled = ExportStream(capacity: 1, stallTimeout: .seconds(30))
        try cancelled.send([1])
        cancelled.cancel()
        #expect(throws: ExportStream.Stop.cancelled) { try cancelled.send([2]) }
    }
}

extension Thread {
    /// Sends `count` one-byte blocks (0, 1, …) on a thread of its own, then finishes the stream;
    /// returns a counter of the blocks sent so far.
    static func detachedSending(_ stream: ExportStream, count: Int) -> SentCounter {
        let counter = SentCounter()
        Thread {
            for index in 0..<count {
                try? stream.send([UInt8(index)])
                counter.increment()
            }
            stream.finish()
        }.start()
        return counter
    }
}

/// How many blocks a sender has sent.
final class SentCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() { lock.withLock { value += 1 } }
    func count() -> Int { lock.withLock { value } }
}
#endif
