import Foundation

// What the HTTP server workload measures with: wrk's output, the server's RSS, a change stream,
// and results handed between threads.

/// What wrk printed: requests/s, latency percentiles, errors.
struct WrkResult {
    var requestsPerSecond = 0.0
    var requests = 0
    var p50 = "?"
    var p99 = "?"
    var errors = 0

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { requestsPerSecond = value }
            if line.contains("requests in"), let value = fields.first.flatMap({ Int($0) }) { requests = value }
            if fields.first == "50%" { p50 = String(fields.last ?? "?") }
            if fields.first == "99%" { p99 = String(fields.last ?? "?") }
            if line.contains("Non-2xx or 3xx responses:"), let value = fields.last.flatMap({ Int($0) }) { errors += value }
            if line.contains("Socket errors:") {
                // Socket errors: connect 0, read 0, write 0, timeout 0
                errors += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
            }
        }
    }
}

/// Samples a process's resident set size from /proc.
final class ResidentSizeSampler: @unchecked Sendable {
    // @unchecked: the fields are only touched under `lock`.
    private let pid: Int32
    private let lock = NSLock()
    private var running = false
    private var maximum = 0
    private var peak = 0
    private let done = DispatchGroup()

    init(pid: Int32) {
        self.pid = pid
    }

    func start() {
        lock.lock()
        running = true
        lock.unlock()
        done.enter()
        Thread.detachNewThread { [self] in
            while true {
                lock.lock()
                let keepGoing = running
                lock.unlock()
                if !keepGoing { break }
                let (rss, hwm) = read()
                lock.lock()
                maximum = Swift.max(maximum, rss)
                peak = Swift.max(peak, hwm)
                lock.unlock()
                usleep(250_000)
            }
            done.leave()
        }
    }

    func stop() {
        let (rss, hwm) = read()
        lock.lock()
        running = false
        maximum = Swift.max(maximum, rss)
        peak = Swift.max(peak, hwm)
        lock.unlock()
        done.wait()
    }

    var peakKiB: Int { lock.lock(); defer { lock.unlock() }; return peak }
    var maximumSampledKiB: Int { lock.lock(); defer { lock.unlock() }; return maximum }

    private func read() -> (rss: Int, hwm: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func value(_ name: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(name) }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }
}

/// Reads a Server-Sent Events stream on a thread of its own and keeps the first `change` event.
final class ChangeStreamReader: @unchecked Sendable {
    // @unchecked: `change` is only touched under `lock`.
    private let lock = NSLock()
    private var change: (data: String, at: Double)?
    private let descriptor: Int32

    init(port: Int, path: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchmarkError("cannot connect to the change stream") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        Thread.detachNewThread { [self] in
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
                if let range = text.range(of: "event: change\ndata: "), let end = text[range.upperBound...].firstIndex(of: "\n") {
                    lock.lock()
                    change = (String(text[range.upperBound..<end]), now())
                    lock.unlock()
                    break
                }
            }
        }
    }

    deinit {
        close(descriptor)
    }

    /// The first change event's data and when it came, waiting up to `timeout` seconds.
    func waitForChange(timeout: Double) -> (data: String, at: Double)? {
        let deadline = now() + timeout
        while now() < deadline {
            lock.lock()
            let found = change
            lock.unlock()
            if let found { return found }
            usleep(10_000)
        }
        return nil
    }
}

/// A value handed from an async task or a callback to a waiting thread.
final class BlockingResult<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is only touched under `lock`.
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
        ready.signal()
    }

    func wait() throws -> Value {
        ready.wait()
        lock.lock()
        defer { lock.unlock() }
        return try result!.get()
    }
}

extension Task where Failure == any Error {
    /// Hands the task's outcome to `result`.
    func forward(to result: BlockingResult<Success>) {
        Task<Void, Never> { result.set(await self.result) }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
