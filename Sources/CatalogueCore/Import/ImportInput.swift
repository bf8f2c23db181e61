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
    /// The total size in bytes when known in advance (a regular file, or bytes in memory).
    public let size: Int?
    /// How many bytes have been read so far.
    public private(set) var bytesRead = 0

    private enum Storage {
        case descriptor(Int32, owned: Bool)
        case memory([UInt8])
    }

    private let storage: Storage
    /// Bytes read ahead by ``sniffedFormat()``, delivered before the rest.
    private var lookahead: [UInt8] = []

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
            if count == 0 { break }
            lookahead += chunk[0..<count]
        }
        return .csv
    }

    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if !lookahead.isEmpty {
            let count = min(buffer.count, lookahead.count)
            lookahead.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: count) }
            lookahead.removeFirst(count)
            return count
        }
        return try readSource(into: buffer)
    }

    /// Reads from the file, standard input or memory, past the look-ahead.
    private func readSource(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        switch storage {
        case .descriptor(let descriptor, _):
            while true {
                let count = systemRead(descriptor, base, buffer.count)
                if count >= 0 {
                    bytesRead += count
                    return count
                }
                if errno != EINTR {
                    throw ImportInputError(path: name, code: errno)
                }
            }
        case .memory(let bytes):
            let count = min(buffer.count, bytes.count - bytesRead)
            bytes.withUnsafeBytes { source in
                base.copyMemory(from: source.baseAddress! + bytesRead, byteCount: count)
            }
            bytesRead += count
            return count
        }
    }
}

/// `read(2)`, named apart from ``ImportInput/read(into:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
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
