#if Server
import CatalogueCore

/// Lets one export run at a time on a server: each holds a read transaction (one of the
/// catalogue's reading connections) while it streams.
///
/// ```swift
/// guard gate.enter() else { throw APIError(.serviceUnavailable, "another export is running") }
/// defer { gate.leave() }
/// ```
final class ExportGate: Sendable {
    private let running = Locked(false)

    init() {}

    /// Whether the caller may export now; when true, it must ``leave()`` once done.
    func enter() -> Bool {
        running.withLock { running in
            guard !running else { return false }
            running = true
            return true
        }
    }

    /// The export is over.
    func leave() {
        running.withLock { $0 = false }
    }
}
#endif
