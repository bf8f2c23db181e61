#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `catalogue serve` started in the background on a free port, with its stderr collected as
/// it comes.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `collected` is only touched under `lock`.
    let process = Process()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var collected = Data()
    private let reader = DispatchGroup()

    /// Starts `catalogue serve --port 0 ARGUMENTS` with `CATALOGUE_DB=database`; after the shell
    /// command `first` (such as `ulimit -n 100`), when given.
    init(_ arguments: [String], database: String, first: String? = nil) throws {
        if let first {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", first + "\nexec \"$0\" \"$@\"", CommandRunner.executable.path, "serve", "--port", "0"] + arguments
        } else {
            process.executableURL = CommandRunner.executable
            process.arguments = ["serve", "--port", "0"] + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CATALOGUE_DB"] = database
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        reader.enter()
        let handle = errorPipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.lock()
                collected.append(data)
                lock.unlock()
            }
            reader.leave()
        }
    }

    /// Everything written to stderr so far.
    var standardError: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// The address from the start line (`catalogue serve: http://127.0.0.1:PORT/ (…)`), waiting
    /// for it; nil when the process ends first or after `timeout`.
    func address(timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = standardError.split(separator: "\n").first(where: { $0.hasPrefix("catalogue serve: http://") }) {
                return line.dropFirst("catalogue serve: http://".count).split(separator: "/").first.map(String.init)
            }
            if !process.isRunning { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits up to `timeout` for the process to end; its status, or nil when it did not.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        _ = reader.wait(timeout: .now() + 5)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// One HTTP exchange, blocking the calling thread: (status, headers, body).
func httpRequest(
    _ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 60
) throws -> (status: Int, headers: [String: String], body: String) {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = timeout
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<(Int, [String: String], String), any Error> = .failure(URLError(.timedOut))
    let task = URLSession.shared.dataTask(with: request) { data, response, error in
        if let response = response as? HTTPURLResponse {
            let fields = Dictionary(uniqueKeysWithValues: response.allHeaderFields.map { ("\($0.key)".lowercased(), "\($0.value)") })
            outcome = .success((response.statusCode, fields, String(decoding: data ?? Data(), as: UTF8.self)))
        } else {
            outcome = .failure(error ?? URLError(.badServerResponse))
        }
        done.signal()
    }
    task.resume()
    done.wait()
    let (status, fields, text) = try outcome.get()
    return (status, fields, text)
}

/// A TCP connection to 127.0.0.1:`port` that sends nothing: its descriptor, or nil when it
/// cannot connect.
func connectedSocket(port: Int) -> Int32? {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard status == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}
#endif
