#if PostgreSQL
import CatalogueCore
import Dispatch
import Foundation
import Logging
import PostgresNIO

/// COPY FROM STDIN fed by a synchronous writer: buffers of rows in COPY's text format go to a
/// task that runs postgres-nio's `copyFrom` on the import's connection, a few buffers at most in
/// flight (the writer waits beyond that: back-pressure).
final class CopyStream: @unchecked Sendable {
    /// How many bytes a buffer collects before it is sent.
    static let bufferBytes = 256 * 1024
    private static let buffersInFlight = 4

    private let chunks: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    /// One credit per buffer that may be in flight. Made at 0 and given its credits in `init`:
    /// libdispatch traps ("semaphore object deallocated while in use") when a semaphore goes
    /// with a lower value than it was made with, and a COPY that fails with buffers still queued
    /// (its server gone) never gives their credits back.
    private let credits = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let failure = ResultBox<Void>()
    private let failed = Locked(false)
    private var buffer = ByteBuffer()
    private var finished = false

    /// Starts `COPY table (columns) FROM STDIN` on `connection`, whose server `target` names in
    /// its errors (``PostgresEngineError``).
    init(connection: PostgresConnection, table: String, columns: [String], target: String, logger: Logger) {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        chunks = continuation
        buffer.reserveCapacity(Self.bufferBytes + 4096)
        for _ in 0..<Self.buffersInFlight { credits.signal() }
        let credits = self.credits, done = self.done, failure = self.failure, failed = self.failed
        Task.detached(executorPreference: BridgeExecutor.shared) {
            do {
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                    for try await chunk in stream {
                        try await writer.write(chunk)
                        credits.signal()
                    }
                }
                failure.set(.success(()))
            } catch {
                failure.set(.failure(PostgresEngineError.describing(error, target: target)))
                failed.withLock { $0 = true }
                // Wake a writer waiting for a credit: it finds the failure.
                credits.signal()
            }
            done.signal()
        }
    }

    /// Appends one row's bytes; sends the buffer when full.
    func append(_ row: (inout ByteBuffer) -> Void) throws {
        row(&buffer)
        if buffer.readableBytes >= Self.bufferBytes {
            try send()
        }
    }

    private func send() throws {
        guard buffer.readableBytes > 0 else { return }
        credits.wait()
        if failed.withLock({ $0 }) {
            try finish()
        }
        chunks.yield(buffer)
        buffer = ByteBuffer()
        buffer.reserveCapacity(Self.bufferBytes + 4096)
    }

    /// Abandons the COPY (CopyFail: the server discards it) and waits until the connection is
    /// out of COPY mode, so the transaction can be rolled back.
    func abort() {
        guard !finished else { return }
        finished = true
        chunks.finish(throwing: CopyAborted())
        done.wait()
    }

    /// Sends what is left, ends the COPY and waits for the server to accept it; throws its error.
    func finish() throws {
        if !finished {
            finished = true
            if !failed.withLock({ $0 }), buffer.readableBytes > 0 {
                credits.wait()
                chunks.yield(buffer)
            }
            chunks.finish()
            done.wait()
        }
        try failure.get()
    }
}

extension ByteBuffer {
    /// Writes `text` escaped for COPY's text format: `\` doubled, tab, newline and carriage
    /// return as `\t`, `\n`, `\r`.
    mutating func writeCopyText(_ text: String) {
        var needsEscaping = false
        for byte in text.utf8 where byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            writeString(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): writeStaticString("\\\\")
            case UInt8(ascii: "\t"): writeStaticString("\\t")
            case UInt8(ascii: "\n"): writeStaticString("\\n")
            case UInt8(ascii: "\r"): writeStaticString("\\r")
            default: writeInteger(byte)
            }
        }
    }

    /// Writes one value in COPY's text format: `\N` for NULL.
    mutating func writeCopyValue(_ value: DatabaseValue) {
        switch value {
        case .null: writeStaticString("\\N")
        case .integer(let integer): writeString(String(integer))
        case .real(let real): writeString(real.isFinite ? "\(real)" : (real.isNaN ? "NaN" : (real > 0 ? "Infinity" : "-Infinity")))
        case .text(let text): writeCopyText(text)
        case .blob(let data): writeString("\\\\x" + data.map { String(format: "%02x", $0) }.joined())
        }
    }
}
#endif

#if PostgreSQL
/// Ends a COPY that an import abandons.
struct CopyAborted: Error {}
#endif
