#if Server
import Foundation

/// Carries an export's blocks from the thread that reads the catalogue to the response's writer,
/// a few at a time: the reading thread waits while `capacity` blocks are on their way, so memory
/// stays bounded however large the catalogue and however slow the client.
///
/// A client that stops reading for `stallTimeout`, reads too slowly (less than a
/// ``MinimumPace`` over its period), or goes away (``cancel()``), ends the export at its next
/// block, which lets go of the read transaction it holds: while it is held, SQLite cannot reset
/// its write-ahead log (it grows with every import meanwhile) and PostgreSQL cannot vacuum.
///
/// ```swift
/// let stream = ExportStream()
/// // On the export's thread:
/// let output = ExportOutput(sink: stream.send)
/// // In the response body:
/// for await block in stream.blocks { try await writer.write(ByteBuffer(bytes: block)); stream.delivered(byteCount: block.count) }
/// if stream.wasAborted { throw ExportStream.Stop.cancelled }  // no end of body
/// ```
final class ExportStream: @unchecked Sendable {
    // @unchecked: `queued`, `cancelled`, `aborted` and the pace's period are read and written
    // under `condition` only.

    /// Why an export stopped before its end.
    enum Stop: Error {
        /// The client went away.
        case cancelled
        /// The client read nothing for the stall timeout.
        case stalled
        /// The client read less than the minimum pace asks.
        case tooSlow
    }

    /// The least a client must read while the export waits for it: `bytes` in every `period`
    /// (by default 1 MiB in 30 s, about 280 kbit/s: the 1,000,000-product CSV in 25 minutes).
    struct MinimumPace: Sendable {
        var bytes = 1 << 20
        var period: Duration = .seconds(30)
    }

    /// The blocks, in order; finished after the last one (or when the export stops).
    let blocks: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let capacity: Int
    private let stallTimeout: Duration
    private let pace: MinimumPace
    private let condition = NSCondition()
    /// Blocks sent and not yet delivered.
    private var queued = 0
    private var cancelled = false
    private var aborted = false
    /// When the period the pace is measured over began, and the bytes delivered since.
    private var periodStart = Date()
    private var deliveredInPeriod = 0

    init(capacity: Int = 4, stallTimeout: Duration = .seconds(30), pace: MinimumPace = MinimumPace()) {
        (blocks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        self.capacity = capacity
        self.stallTimeout = stallTimeout
        self.pace = pace
    }

    /// Queues `block` for the writer (the export's thread); waits while `capacity` blocks are
    /// queued. Throws ``Stop`` when the client went away, stalled or reads too slowly.
    func send(_ block: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: Self.seconds(stallTimeout))
        while queued >= capacity, !cancelled {
            // The client is what the export waits for: it must keep up the pace (checked first:
            // a client that reads, slowly, is too slow rather than stalled).
            try checkPace()
            if Date() >= deadline {
                stop()
                throw Stop.stalled
            }
            _ = condition.wait(until: min(deadline, periodStart.addingTimeInterval(Self.seconds(pace.period))))
        }
        if cancelled { throw Stop.cancelled }
        queued += 1
        continuation.yield(block)
    }

    /// Ends the export when a whole period has passed with less than the pace delivered; starts
    /// the next period otherwise. Called with `condition` locked, only while the export waits
    /// for its client (a period in which the catalogue was slow to read counts for it).
    private func checkPace() throws {
        let now = Date()
        guard now >= periodStart.addingTimeInterval(Self.seconds(pace.period)) else { return }
        guard deliveredInPeriod >= pace.bytes else {
            stop()
            throw Stop.tooSlow
        }
        periodStart = now
        deliveredInPeriod = 0
    }

    /// Ends the blocks as cut short, with `condition` locked: marked aborted before the writer
    /// can see their end, so it never ends the body as a whole one.
    private func stop() {
        aborted = true
        continuation.finish()
    }

    /// The writer wrote a block of `byteCount` bytes: the export may queue another.
    func delivered(byteCount: Int) {
        condition.lock()
        queued -= 1
        deliveredInPeriod += byteCount
        condition.signal()
        condition.unlock()
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The export ended with its last block sent: the writer finishes after the queued blocks.
    func finish() {
        continuation.finish()
    }

    /// The export stopped before its end (a client too slow, a failed read): the writer ends
    /// the response after the queued blocks without the end a whole body has, so the client
    /// knows its file is cut short (a chunked body without its last chunk; `curl` says
    /// "transfer closed with outstanding read data remaining").
    func abort() {
        condition.lock()
        aborted = true
        condition.unlock()
        continuation.finish()
    }

    /// Whether the export stopped before its end (``abort()``).
    var wasAborted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return aborted
    }

    /// The client went away: the export stops at its next block, without waiting.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        continuation.finish()
    }
}
#endif
