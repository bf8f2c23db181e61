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
        // A stall timeout longer than any wait for this task under the whole suite's load, and no
        // pace to keep (a starved consumer took less than the default's 1 MiB in 30 s in CI).
        let stream = ExportStream(capacity: 2, stallTimeout: .seconds(600), pace: ExportStream.MinimumPace(bytes: 0))
        let sent = Thread.detachedSending(stream, count: 10)
        var received: [[UInt8]] = []
        for await block in stream.blocks {
            // Never more than the capacity sent ahead of what was delivered.
            #expect(sent.count() <= received.count + 2 + 1)
            received.append(block)
            stream.delivered(byteCount: block.count)
        }
        #expect(received == (0..<10).map { [UInt8($0)] })
    }

    @Test("A client that reads nothing stalls the export, which then stops; one that goes away stops it at once")
    func stops() throws {
        let stalled = ExportStream(capacity: 1, stallTimeout: .milliseconds(100))
        try stalled.send([1])
        #expect(throws: ExportStream.Stop.stalled) { try stalled.send([2]) }
        // Cut short as the blocks end, not later: the writer must not end the body as whole.
        #expect(stalled.wasAborted)
        let cancelled = ExportStream(capacity: 1, stallTimeout: .seconds(30))
        try cancelled.send([1])
        cancelled.cancel()
        #expect(throws: ExportStream.Stop.cancelled) { try cancelled.send([2]) }
    }

    @Test("A client that reads, but less than the pace over a period, stops the export; one that keeps it up does not")
    func pace() async throws {
        // 100 bytes in each 200 ms while the export waits for its client.
        let pace = ExportStream.MinimumPace(bytes: 100, period: .milliseconds(200))
        let slow = ExportStream(capacity: 1, stallTimeout: .seconds(600), pace: pace)
        let outcome = Thread.detachedSendingUntilStopped(slow, blockSize: 10)
        // Ten bytes every 50 ms: 40 bytes a period.
        for await block in slow.blocks {
            try await Task.sleep(for: .milliseconds(50))
            slow.delivered(byteCount: block.count)
        }
        #expect(await outcome.value == .tooSlow)
        #expect(slow.wasAborted)
        // A client that takes each block at once keeps up 100 bytes in 5 s however loaded the
        // machine (on GCD's threads, not the cooperative pool, which the whole suite can starve).
        let fast = ExportStream(capacity: 1, stallTimeout: .seconds(600), pace: ExportStream.MinimumPace(bytes: 100, period: .seconds(5)))
        let sent = Thread.detachedSending(fast, count: 40, blockSize: 100)
        let received = await withTaskExecutorPreference(DispatchTaskExecutor.shared) {
            var received = 0
            for await block in fast.blocks {
                received += block.count
                fast.delivered(byteCount: block.count)
            }
            return received
        }
        #expect(received == 4_000)
        #expect(sent.count() == 40)
    }
}

extension Thread {
    /// Sends `count` blocks of `blockSize` bytes (the first block's bytes 0, the next 1, …) on a
    /// thread of its own, then finishes the stream; returns a counter of the blocks sent so far.
    static func detachedSending(_ stream: ExportStream, count: Int, blockSize: Int = 1) -> SentCounter {
        let counter = SentCounter()
        Thread {
            for index in 0..<count {
                try? stream.send([UInt8](repeating: UInt8(index % 256), count: blockSize))
                counter.increment()
            }
            stream.finish()
        }.start()
        return counter
    }

    /// Sends blocks of `blockSize` bytes on a thread of its own until `send` throws; the task's
    /// value is why it stopped.
    static func detachedSendingUntilStopped(_ stream: ExportStream, blockSize: Int) -> Task<ExportStream.Stop?, Never> {
        let (stops, continuation) = AsyncStream.makeStream(of: ExportStream.Stop?.self)
        Thread {
            var stop: ExportStream.Stop?
            for _ in 0..<100_000 {
                do {
                    try stream.send([UInt8](repeating: 0, count: blockSize))
                } catch let error as ExportStream.Stop {
                    stop = error
                    break
                } catch {
                    break
                }
            }
            stream.finish()
            continuation.yield(stop)
            continuation.finish()
        }.start()
        return Task { await stops.first(where: { _ in true }) ?? nil }
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
