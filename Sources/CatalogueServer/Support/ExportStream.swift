#if Server
import Foundation

/// Carries an export's blocks from the thread that reads the catalogue to the response's writer,
/// a few at a time: the reading thread waits while `capacity` blocks are on their way, so memory
/// stays bounded however large the catalogue and however slow the client.
///
/// A client that stops reading for `stallTimeout`, or goes away (``cancel()``), ends the export
/// at its next block, which lets go of the read transaction it holds.
///
/// ```swift
/// let stream = ExportStream()
/// // On the export's thread:
/// let output = ExportOutput(sink: stream.send)
/// // In the response body:
/// for await block in stream.blocks { try await writer.write(ByteBuffer(bytes: block)); stream.delivered() }
/// ```
final class ExportStream: @unchecked Sendable {
    // @unchecked: `queued` and `cancelled` are read and written under `condition` only.

    /// Why an export stopped before its end.
    enum Stop: Error {
        /// The client went away.
        case cancelled
        /// The client read nothing for the stall timeout.
        case stalled
    }

    /// The blocks, in order; finished after the last one (or when the export stops).
    let blocks: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let capacity: Int
    private let stallTimeout: Duration
    private let condition = NSCondition()
    /// Blocks sent and not yet delivered.
    private var queued = 0
    private var cancelled = false

    init(capacity: Int = 4, stallTimeout: Duration = .seconds(30)) {
        (blocks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        self.capacity = capacity
        self.stallTimeout = stallTimeout
    }

    /// Queues `block` for the writer (the export's thread); waits while `capacity` blocks are
    /// queued. Throws ``Stop`` when the client went away or stalled.
    func send(_ block: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        let (seconds, attoseconds) = stallTimeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        while queued >= capacity, !cancelled {
            if !condition.wait(until: deadline), queued >= capacity, !cancelled {
                continuation.finish()
                throw Stop.stalled
            }
        }
        if cancelled { throw Stop.cancelled }
        queued += 1
        continuation.yield(block)
    }

    /// The writer wrote a block: the export may queue another.
    func delivered() {
        condition.lock()
        queued -= 1
        condition.signal()
        condition.unlock()
    }

    /// The export ended (its last block sent, or it failed): the writer finishes after the
    /// queued blocks.
    func finish() {
        continuation.finish()
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
