import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``ImportInput``: a stream is read to its end before an import takes the write lock.
@Suite("Import input")
struct ImportInputTests {
    /// A pipe: its read end, and a thread that writes `pieces` into it, `pause` apart, then
    /// closes it once `release` is signalled (at once when nil).
    static func pipe(writing pieces: [String], pause: useconds_t = 0, release: DispatchSemaphore? = nil) -> Int32 {
        var ends: [Int32] = [0, 0]
        #expect(systemPipe(&ends) == 0)
        let writeEnd = ends[1]
        Thread.detachNewThread {
            for piece in pieces {
                _ = piece.utf8CString.withUnsafeBufferPointer { write(writeEnd, $0.baseAddress!, $0.count - 1) }
                usleep(pause)
            }
            release?.wait()
            close(writeEnd)
        }
        return ends[0]
    }

    /// Every byte `input` delivers.
    static func contents(of input: ImportInput) throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 7)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("A pipe is read to its end into an unnamed file: every byte, the sniffed ones first, and its size then known")
    func spooledPipe() throws {
        let pieces = [" [{\"name\": ", "\"Piped\", ", "\"type\": \"x\"}]\n"]
        let whole = pieces.joined()
        let readEnd = Self.pipe(writing: pieces, pause: 20_000)
        defer { close(readEnd) }
        let input = ImportInput(descriptor: readEnd, name: "<stdin>")
        #expect(input.size == nil)
        #expect(try input.sniffedFormat() == .json)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try input.spoolIfStreaming(in: directory.url.path)
        #expect(input.size == whole.utf8.count)
        // Nothing is left in the directory: the file never had a name past its creation.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(try Self.contents(of: input) == whole)
        #expect(input.bytesRead == whole.utf8.count)
    }

    @Test("A FIFO named as the input (`catalogue import products /tmp/fifo`) is spooled as a pipe is")
    func spooledFIFO() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path("products.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        Thread.detachNewThread {
            let descriptor = open(fifo, O_WRONLY)
            _ = "name,type\nFrom a FIFO,tool\n".utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress!, $0.count - 1) }
            close(descriptor)
        }
        let input = try ImportInput(path: fifo)
        #expect(input.size == nil)
        try input.spoolIfStreaming(in: directory.url.path)
        #expect(input.size == "name,type\nFrom a FIFO,tool\n".utf8.count)
        #expect(try Self.contents(of: input) == "name,type\nFrom a FIFO,tool\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["products.fifo"])
    }

    @Test("A file and bytes in memory are read where they are; without a place to spool, a stream is read as it comes")
    func notSpooled() throws {
        let memory = ImportInput(text: "name,type\n", name: "inline.csv")
        try memory.spoolIfStreaming(in: "/nonexistent")
        #expect(memory.size == 10)
        #expect(try Self.contents(of: memory) == "name,type\n")
        let readEnd = Self.pipe(writing: ["name,", "type\n"], pause: 20_000)
        defer { close(readEnd) }
        let piped = ImportInput(descriptor: readEnd, name: "<stdin>")
        try piped.spoolIfStreaming(in: "/nonexistent")
        #expect(piped.size == nil)
        #expect(try Self.contents(of: piped) == "name,type\n")
    }

    @Test("A stream longer than the limit: the spooled part, then the rest as it comes; every byte once, in order")
    func longerThanTheLimit() throws {
        let pieces = (0..<20).map { "line \($0)\n" }
        let readEnd = Self.pipe(writing: pieces, pause: 5_000)
        defer { close(readEnd) }
        let input = ImportInput(descriptor: readEnd, name: "<stdin>")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try input.spoolIfStreaming(in: directory.url.path, limit: 16)
        #expect(input.size == nil, "the stream had not ended")
        #expect(try Self.contents(of: input) == pieces.joined())
        #expect(input.bytesRead == pieces.joined().utf8.count)
    }

    @Test("The spool's disk full: what it did not take comes from memory, then the rest of the stream")
    func spoolDiskFull() throws {
        let pieces = (0..<50).map { "row number \($0)\n" }
        let readEnd = Self.pipe(writing: pieces, pause: 2_000)
        defer { close(readEnd) }
        let input = ImportInput(descriptor: readEnd, name: "<stdin>")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A disk with room for 30 bytes, taken a few at a time.
        nonisolated(unsafe) var room = 30
        try input.spoolIfStreaming(in: directory.url.path) { descriptor, bytes, count in
            guard room > 0 else {
                errno = ENOSPC
                return -1
            }
            let taken = min(count, room, 7)
            room -= taken
            return write(descriptor, bytes, taken)
        }
        #expect(try Self.contents(of: input) == pieces.joined())
    }

    @Test("An import from a pipe that has not ended holds no write lock: another write goes ahead meanwhile")
    func importWaitsForTheStreamBeforeLocking() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("catalogue.sqlite")
        let catalogue = try Catalogue(path: path)
        let release = DispatchSemaphore(value: 0)
        let readEnd = Self.pipe(writing: ["name,type\n", "Slow pipe,tool\n"], release: release)
        defer { close(readEnd) }
        // Should an expectation below throw, the pipe still ends and the import with it.
        defer { release.signal() }
        let imported = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<ImportCounts, any Error>?
        Thread.detachNewThread {
            outcome = Result {
                try catalogue.importRecords(
                    Product.self, from: ImportInput(descriptor: readEnd, name: "<stdin>"), options: ImportOptions(format: .csv))
            }
            imported.signal()
        }
        // Another process's import, while the pipe is open: it gets the write lock at once.
        var configuration = Configuration()
        configuration.writeLockTimeout = .seconds(2)
        let other = try Catalogue(path: path, configuration: configuration)
        usleep(200_000)
        let counts = try other.importRecords(
            Product.self, from: ImportInput(text: "name,type\nMeanwhile,tool\n", name: "other.csv"), options: ImportOptions(format: .csv))
        #expect(counts.added == 1)
        #expect(imported.wait(timeout: .now()) == .timedOut, "the piped import waits for its input's end")
        release.signal()
        #expect(imported.wait(timeout: .now() + 60) == .success)
        #expect(try outcome?.get().added == 1)
        #expect(try catalogue.fetch(CatalogueSearch.products(matching: "slow pipe")).count == 1)
    }
}

/// `pipe(2)`.
private func systemPipe(_ ends: inout [Int32]) -> Int32 {
    ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
}
