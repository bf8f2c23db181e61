import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an import reads its bytes from: a file, standard input, or bytes in memory.
///
/// Files and standard input are read in chunks as the import goes, so memory does not grow with
/// the size of the input.
///
/// ```swift
/// let file = try ImportInput(path: "products.csv")       // name "products.csv", size known
/// let piped = ImportInput.standardInput()                 // name "<stdin>"
/// let inline = ImportInput(text: "name,type\nBrio,device\n", name: "inline.csv")
/// ```
public final class ImportInput {
    /// The name used in messages (`FILE` of `FILE:LINE: column: reason`).
    public let name: String
    /// The total size in bytes when known in advance (a regular file, bytes in memory, or a
    /// stream read to its end before an import, up to 64 MiB).
    public private(set) var size: Int?
    /// How many bytes the import has read so far.
    public private(set) var bytesRead = 0
    /// How far into bytes in memory the source has been read.
    private var memoryOffset = 0

    private enum Storage {
        case descriptor(Int32, owned: Bool)
        case memory([UInt8])
    }

    private var storage: Storage
    /// Bytes read ahead by ``sniffedFormat()``, delivered before the rest.
    private var lookahead: [UInt8] = []
    /// What ``spoolIfStreaming(in:limit:)`` kept of a stream: an unnamed file and how much of it
    /// is still to be read, delivered after the look-ahead.
    private var spool: (descriptor: Int32, remaining: Int)?
    /// Bytes read from the stream that the spool could not take (its disk full), delivered
    /// after it.
    private var carry: [UInt8] = []
    /// Whether the source was read to its end (a terminal is not read again after Ctrl-D).
    private var sourceEnded = false

    /// Opens the file at `path` for reading; `name` defaults to the path as given.
    ///
    /// Throws ``ImportInputError`` when the file cannot be opened or is a directory.
    public init(path: String, name: String? = nil) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportInputError(path: path, code: errno)
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw ImportInputError(path: path, code: EISDIR)
        }
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        self.name = name ?? path
        self.size = isRegular ? Int(info.st_size) : nil
        self.storage = .descriptor(descriptor, owned: true)
    }

    /// Standard input (not closed when the import ends). Its size is known when it is redirected
    /// from a regular file (`< products.csv`).
    public static func standardInput(name: String = "<stdin>") -> ImportInput {
        ImportInput(descriptor: STDIN_FILENO, name: name)
    }

    /// Reads an open file descriptor, which the caller keeps and closes.
    public init(descriptor: Int32, name: String) {
        var info = stat()
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        self.name = name
        // Only what is left from the current offset will be read.
        let offset = isRegular ? lseek(descriptor, 0, SEEK_CUR) : -1
        self.size = isRegular && offset >= 0 ? Int(info.st_size) - Int(offset) : nil
        self.storage = .descriptor(descriptor, owned: false)
    }

    /// Bytes in memory (tests, or data received some other way).
    public init(bytes: [UInt8], name: String) {
        self.name = name
        self.size = bytes.count
        self.storage = .memory(bytes)
    }

    /// Text in memory, as UTF-8.
    public convenience init(text: String, name: String) {
        self.init(bytes: Array(text.utf8), name: name)
    }

    deinit {
        if case .descriptor(let descriptor, owned: true) = storage {
            close(descriptor)
        }
        if let spool { close(spool.descriptor) }
    }

    /// The format the content looks like, for input without a name to tell it (standard
    /// input): after an optional UTF-8 byte order mark and whitespace, `[` starts a JSON array
    /// and `{` an NDJSON object; anything else is CSV. The bytes looked at are still read by
    /// the import (at most 64 KiB are looked at).
    ///
    /// ```swift
    /// ImportInput(text: " [{\"name\":\"Brio\"}]", name: "-").sniffedFormat()  // .json
    /// ```
    public func sniffedFormat() throws -> RecordFileFormat {
        var index = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while lookahead.count < 64 * 1024 {
            if index == 0, lookahead.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            while index < lookahead.count, [0x20, 0x09, 0x0A, 0x0D].contains(lookahead[index]) { index += 1 }
            if index < lookahead.count {
                switch lookahead[index] {
                case UInt8(ascii: "["): return .json
                case UInt8(ascii: "{"): return .ndjson
                default: return .csv
                }
            }
            let count = try chunk.withUnsafeMutableBytes { try readSource(into: $0) }
            if count == 0 {
                sourceEnded = true
                break
            }
            lookahead += chunk[0..<count]
        }
        return .csv
    }

    /// Reads a stream (a pipe, a socket, a terminal: an input whose size is not known) to its
    /// end, up to `limit` bytes, into an unnamed temporary file in `directory`, which the import
    /// reads first. Does nothing for a regular file or bytes in memory.
    ///
    /// An import holds the catalogue's write lock from its first row to its commit; fed by a
    /// pipe that is slow to end (`ssh host cat products.csv | catalogue import products -`), it
    /// held every other writer waiting that long, and a first import every reader of the new
    /// path. Read to its end first, the input is there whole when the import starts. A stream
    /// longer than `limit` (64 MiB: about 1,500,000 products as CSV; `/dev/zero` never ends),
    /// or one the directory has no room for, is read on from where the file stops, as before.
    /// The file has no name from the start, so nothing is left behind, whatever ends the process.
    /// `write` is `write(2)`; tests pass one that fills up, as a full disk does.
    package func spoolIfStreaming(
        in directory: String = ImportInput.temporaryDirectory, limit: Int = 64 << 20,
        write: (Int32, UnsafeRawPointer, Int) -> Int = systemWrite
    ) throws {
        guard size == nil, spool == nil, case .descriptor = storage else { return }
        guard !sourceEnded else {
            size = lookahead.count
            return
        }
        var template = Array((directory + "/catalogue-input-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        // No temporary file (no such directory, no room): the stream is read as it comes.
        guard file >= 0 else { return }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var spooled = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        do {
            reading: while spooled < limit {
                let count = try chunk.withUnsafeMutableBytes { try readSource(into: $0) }
                if count == 0 {
                    sourceEnded = true
                    break
                }
                var written = 0
                while written < count {
                    let result = chunk[written..<count].withUnsafeBytes { write(file, $0.baseAddress!, $0.count) }
                    if result < 0, errno == EINTR { continue }
                    guard result > 0 else {
                        // The disk is full: what was not written is delivered from memory.
                        carry = Array(chunk[written..<count])
                        spooled += written
                        break reading
                    }
                    written += result
                }
                spooled += count
            }
        } catch {
            close(file)
            throw error
        }
        guard lseek(file, 0, SEEK_SET) == 0 else {
            let code = errno
            close(file)
            throw ImportInputError(path: name, code: code)
        }
        spool = (file, spooled)
        if sourceEnded {
            size = lookahead.count + spooled + carry.count
            // Read to its end: the source is not read again (nor closed twice, by `deinit`).
            if case .descriptor(let source, owned: true) = storage { close(source) }
            storage = .memory([])
        }
    }

    /// `TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        guard let directory = getenv("TMPDIR"), directory.pointee != 0 else { return "/tmp" }
        let path = String(cString: directory)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 at the end of the input. The
    /// look-ahead first, then what was spooled, then the rest of the source.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count: Int
        if !lookahead.isEmpty {
            count = min(buffer.count, lookahead.count)
            lookahead.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: count) }
            lookahead.removeFirst(count)
        } else if let spool, spool.remaining > 0 {
            count = try readSpool(spool.descriptor, into: buffer, upTo: spool.remaining)
            self.spool?.remaining -= count
        } else if !carry.isEmpty {
            count = min(buffer.count, carry.count)
            carry.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: count) }
            carry.removeFirst(count)
        } else if sourceEnded {
            count = 0
        } else {
            count = try readSource(into: buffer)
        }
        bytesRead += count
        return count
    }

    /// Reads up to `limit` bytes of the spool file into `buffer`.
    private func readSpool(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, upTo limit: Int) throws -> Int {
        let count = try readDescriptor(descriptor, into: buffer.baseAddress!, count: min(buffer.count, limit))
        // The spool ended before what was written to it: report it as a read error.
        guard count > 0 else { throw ImportInputError(path: name, code: EIO) }
        return count
    }

    /// `read(2)` of `descriptor`, again when a signal interrupts it; an error names the input.
    private func readDescriptor(_ descriptor: Int32, into base: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let read = systemRead(descriptor, base, count)
            if read >= 0 { return read }
            if errno != EINTR { throw ImportInputError(path: name, code: errno) }
        }
    }

    /// Reads from the file, standard input or memory, past the look-ahead.
    private func readSource(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        switch storage {
        case .descriptor(let descriptor, _):
            return try readDescriptor(descriptor, into: base, count: buffer.count)
        case .memory(let bytes):
            let count = min(buffer.count, bytes.count - memoryOffset)
            bytes.withUnsafeBytes { source in
                base.copyMemory(from: source.baseAddress! + memoryOffset, byteCount: count)
            }
            memoryOffset += count
            return count
        }
    }
}

/// `read(2)`, named apart from ``ImportInput/read(into:)`` (also the server's token file's).
package func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}


/// An input could not be opened or read.
public struct ImportInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path or name of the input.
    public let path: String
    /// The `errno` value.
    public let code: Int32

    public var description: String {
        "cannot read \(path): \(String(cString: strerror(code)))"
    }
}
