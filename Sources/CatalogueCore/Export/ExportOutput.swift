#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer to a file descriptor (standard output by default), for exports: text is
/// gathered into 64 KiB blocks, so writing a million rows takes a few hundred `write` calls.
///
/// ```swift
/// let output = ExportOutput.standardOutput()
/// output.write("code,name\r\n")
/// try output.flush()
/// ```
public final class ExportOutput {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private var failure: Int32?

    /// Writes to `descriptor`, which the caller keeps open.
    public init(descriptor: Int32, bufferSize: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    /// Standard output.
    public static func standardOutput() -> ExportOutput {
        ExportOutput(descriptor: STDOUT_FILENO)
    }

    /// Appends `text`; writes a block when the buffer is full.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { writeBuffer() }
    }

    /// Writes what is buffered. Throws ``ExportOutputError`` when a write failed (then and
    /// since).
    public func flush() throws {
        writeBuffer()
        if let failure { throw ExportOutputError(code: failure) }
    }

    private func writeBuffer() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
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
                    failure = errno
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

/// `write(2)`, named apart from ``ExportOutput/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
