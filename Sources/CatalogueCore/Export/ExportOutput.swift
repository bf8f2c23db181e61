#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer for exports, to a file descriptor (standard output by default) or to a
/// function of your own: text is gathered into 64 KiB blocks, so writing a million rows takes a
/// few hundred `write` calls.
///
/// ```swift
/// let output = ExportOutput.standardOutput()
/// output.write("code,name\r\n")
/// try output.flush()
///
/// var blocks: [[UInt8]] = []
/// let collecting = ExportOutput { block in blocks.append(block) }  // e.g. an HTTP response body
/// ```
public final class ExportOutput {
    private enum Destination {
        case descriptor(Int32)
        case sink(([UInt8]) throws -> Void)
    }

    private let destination: Destination
    private var buffer: [UInt8] = []
    private let capacity: Int
    private var failure: (any Error)?

    /// Writes to `descriptor`, which the caller keeps open.
    public init(descriptor: Int32, bufferSize: Int = 64 * 1024) {
        destination = .descriptor(descriptor)
        self.capacity = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    /// Hands each block (about `bufferSize` bytes, and what is left at ``flush()``) to `sink`.
    /// When `sink` throws, nothing more is handed to it and ``flush()`` throws its error.
    public init(bufferSize: Int = 64 * 1024, sink: @escaping ([UInt8]) throws -> Void) {
        destination = .sink(sink)
        self.capacity = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    /// Standard output.
    public static func standardOutput() -> ExportOutput {
        ExportOutput(descriptor: STDOUT_FILENO)
    }

    /// Whether a write has failed; what is written after is dropped. An export stops early on it.
    public var hasFailed: Bool {
        failure != nil
    }

    /// Appends `text`; writes a block when the buffer is full.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { writeBuffer() }
    }

    /// Writes what is buffered. Throws ``ExportOutputError`` when a write to a descriptor
    /// failed (then and since), or the sink's error.
    public func flush() throws {
        writeBuffer()
        if let failure { throw failure }
    }

    private func writeBuffer() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        switch destination {
        case .descriptor(let descriptor):
            writeBuffer(to: descriptor)
        case .sink(let sink):
            guard !buffer.isEmpty else { return }
            do {
                try sink(buffer)
            } catch {
                failure = error
            }
        }
    }

    private func writeBuffer(to descriptor: Int32) {
        if descriptor == STDOUT_FILENO {
            // What the program printed before (Swift's print goes through stdio's buffer) comes
            // first, as it would on a terminal.
            fflush(nil)
        }
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = ExportOutputError(code: errno)
                    return
                }
                offset += written
            }
        }
    }
}

/// Writing an export failed.
public struct ExportOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value of the failed write.
    public let code: Int32

    public var description: String {
        "cannot write the export: \(String(cString: strerror(code)))"
    }
}

/// `write(2)`, named apart from ``ExportOutput/write(_:)`` (also the spool's, ``ImportInput``).
package func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
