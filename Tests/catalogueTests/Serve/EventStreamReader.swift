#if Server
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Server-Sent Events client for tests: connects, waits for `ready`, then hands out `change`
/// events' data as they come.
final class EventStreamReader {
    private let descriptor: Int32
    private var text = ""

    /// Opens `path` on `address` ("127.0.0.1:PORT") and waits for the `ready` event.
    init(address: String, path: String) throws {
        let parts = address.split(separator: ":")
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(parts.last.flatMap { Int($0) } ?? 0).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(String(parts.first ?? "127.0.0.1"))
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(address)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard read(until: { $0.contains("event: ready\ndata: {}\n\n") }, timeout: 30) else { throw CocoaError(.fileReadUnknown) }
    }

    deinit {
        close(descriptor)
    }

    /// The data of the next `change` event, as JSON; nil after `timeout` seconds.
    func nextChange(timeout: TimeInterval) -> [String: Any]? {
        let marker = "event: change\ndata: "
        guard read(until: { text in
            guard let start = text.range(of: marker) else { return false }
            return text[start.upperBound...].contains("\n")
        }, timeout: timeout), let start = text.range(of: marker), let end = text[start.upperBound...].firstIndex(of: "\n") else {
            return nil
        }
        let data = String(text[start.upperBound..<end])
        text = String(text[end...])
        return (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
    }

    private func read(until done: (String) -> Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(text) {
            guard Date() < deadline else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return false }
            if count > 0 { text += String(decoding: buffer[..<count], as: UTF8.self) }
        }
        return true
    }
}
#endif
