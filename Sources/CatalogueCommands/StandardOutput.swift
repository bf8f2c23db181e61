import CatalogueKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output for a command's results: buffered, written with `write(2)`, and checked, so
/// a failed write (a full disk, `/dev/full`, a closed file) is an error rather than a silent
/// exit 0. A reader that went away (EPIPE) ends the process quietly, as SIGPIPE does.
///
/// ```swift
/// standardOutput.print("1 item found")
/// try standardOutput.finish()   // throws StandardOutputError on a failed write
/// ```
final class StandardOutput: @unchecked Sendable {
    // @unchecked: `output` is only touched while `lock` is held (commands use one thread).
    private let lock = NSLock()
    private let output = ExportOutput.standardOutput()

    /// Appends `text` and `terminator`.
    func print(_ text: String = "", terminator: String = "\n") {
        lock.withLock { output.write(text + terminator) }
    }

    /// The buffered writer, for exports that write rows one by one.
    func withExportOutput<T>(_ body: (ExportOutput) throws -> T) rethrows -> T {
        try lock.withLock { try body(output) }
    }

    /// Writes what is buffered; throws ``StandardOutputError`` when this or any earlier write
    /// failed, and exits quietly with status 141 when the reader closed the pipe.
    func finish() throws {
        do {
            try lock.withLock { try output.flush() }
        } catch let error as ExportOutputError {
            throw StandardOutputError(code: error.code)
        }
    }
}

/// The standard output of this process.
let standardOutput = StandardOutput()

/// Writing to standard output failed.
struct StandardOutputError: Error, CustomStringConvertible {
    /// The `errno` of the failed write.
    let code: Int32

    /// Whether the reader closed the pipe (then nothing is reported).
    var isBrokenPipe: Bool { code == EPIPE }

    var description: String {
        "cannot write to standard output: \(String(cString: strerror(code)))"
    }
}
