#if Server
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to the live test server that writes raw request bytes and reads what comes
/// back as it comes: for Server-Sent Events, bodies sent in pieces, and bytes no HTTP client
/// would send.
///
/// Reads block a thread of their own, never one of Swift's cooperative threads or GCD's (the
/// server under test needs those).
final class RawHTTPConnection: @unchecked Sendable {
    // @unchecked: used by one test task at a time.
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case timedOut(String)
        case closed(String)

        var description: String {
            switch self {
            case .connect(let code): "connect failed: \(String(cString: strerror(code)))"
            case .timedOut(let context): "timed out waiting for \(context)"
            case .closed(let context): "connection closed while waiting for \(context)"
            }
        }
    }

    /// Connects to the server at 127.0.0.1:`port`. `receiveBufferSize`: a small receive buffer
    /// (`SO_RCVBUF`, set before connecting), so that a client that reads nothing stops the
    /// server's writes after a few kilobytes rather than the megabytes loopback TCP can buffer.
    init(port: Int, receiveBufferSize: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            throw Failure.connect(code)
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// `send(2)` without SIGPIPE (Linux: MSG_NOSIGNAL; Darwin has no such flag and reports EPIPE
    /// once the socket's SO_NOSIGPIPE is set, which the tests do not need there).
    private static func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(descriptor, bytes, count, 0)
        #endif
    }

    /// Sends `bytes`; false when the server has closed its end.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Self.sendBytes(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Reads until `done` says the bytes so far are enough, or `timeout` passes.
    func read(
        until done: @escaping @Sendable ([UInt8]) -> Bool, timeout: Duration = .seconds(30), context: String
    ) async throws -> [UInt8] {
        // A thread of its own, not one of GCD's: the server under test runs its tasks on GCD's
        // pool (DispatchTaskExecutor), and reads blocking that pool's few threads starved it
        // under AddressSanitizer's load until a request timed out (CI, 2026-11-27).
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try self.blockingRead(until: done, timeout: timeout, context: context) })
            }.start()
        }
    }

    private func blockingRead(until done: ([UInt8]) -> Bool, timeout: Duration, context: String) throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while !done(buffer) {
            guard ContinuousClock.now < deadline else { throw Failure.timedOut(context) }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { throw Failure.closed(context) }
            if count > 0 { buffer += chunk[..<count] }
        }
        return buffer
    }

    /// Reads until the streamed body received so far (chunked transfer encoding decoded)
    /// contains `marker`; returns that body.
    func readText(containing marker: String, timeout: Duration = .seconds(30)) async throws -> String {
        let bytes = try await read(until: { Self.streamedBody($0).contains(marker) }, timeout: timeout, context: "'\(marker)'")
        return Self.streamedBody(bytes)
    }

    /// The head of the response in `bytes`, if it has come.
    static func head(_ bytes: [UInt8]) -> String? {
        headEnd(bytes).map { String(decoding: bytes[..<$0], as: UTF8.self) }
    }

    /// The body of a chunked response so far: the data of every whole chunk after the head.
    static func streamedBody(_ bytes: [UInt8]) -> String {
        guard let end = headEnd(bytes) else { return "" }
        return String(decoding: chunkedData(bytes[(end + 4)...]).data, as: UTF8.self)
    }

    /// The data of every whole chunk of a chunked body, and whether its last (empty) chunk has
    /// come.
    static func chunkedData(_ bytes: ArraySlice<UInt8>) -> (data: [UInt8], complete: Bool) {
        var data: [UInt8] = []
        var index = bytes.startIndex
        while let lineEnd = (index..<max(index, bytes.endIndex - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
              let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16),
              lineEnd + 2 + size + 2 <= bytes.endIndex {
            if size == 0 { return (data, true) }
            data += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return (data, false)
    }

    /// Reads one whole response with a Content-Length; returns (status, head, body).
    func readResponse(timeout: Duration = .seconds(30)) async throws -> (status: Int, head: String, body: String) {
        let bytes = try await read(until: { bytes in
            guard let end = Self.headEnd(bytes) else { return false }
            let head = String(decoding: bytes[..<end], as: UTF8.self)
            return bytes.count - end - 4 >= Self.contentLength(head)
        }, timeout: timeout, context: "a response")
        let end = Self.headEnd(bytes)!
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let length = Self.contentLength(head)
        let body = String(decoding: bytes[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, body)
    }

    /// Reads until the server closes the connection; returns every byte it sent.
    func readToEnd(timeout: Duration = .seconds(30), context: String) async throws -> [UInt8] {
        do {
            return try await read(until: { _ in false }, timeout: timeout, context: context)
        } catch Failure.closed {
            return buffer
        }
    }

    /// Whether the server closes the connection within `timeout`.
    func waitForClose(timeout: Duration) async -> Bool {
        do {
            _ = try await read(until: { _ in false }, timeout: timeout, context: "close")
            return false
        } catch Failure.closed {
            return true
        } catch {
            return false
        }
    }

    /// Where the head of the response in `bytes` ends (its blank line's CR), if it has come.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
#endif
