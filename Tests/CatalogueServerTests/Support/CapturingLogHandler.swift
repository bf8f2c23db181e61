#if Server
import Logging
import Foundation

/// Log lines kept for tests to read.
final class CapturedLogs: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []

    func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
        lock.lock()
        defer { lock.unlock() }
        entries.append((level, message, metadata))
    }

    var all: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// A log handler that keeps what it is given.
struct CapturingLogHandler: LogHandler {
    let logs: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        logs.append(event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
    }
}
#endif
