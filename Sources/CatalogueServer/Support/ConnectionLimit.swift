#if Server
import HummingbirdCore
import Logging

/// How many connections the server keeps open at once. At the limit it stops accepting: a new
/// connection waits in the kernel's queue until one closes (an idle one is closed after
/// ``ServerOptions/idleTimeout``), instead of the server running out of file descriptors, when
/// it could answer nobody, open no catalogue file, and spin on `accept(2)`.
///
/// The limit is ``ServerOptions/maximumConnections``, lowered to what the process's open-file
/// limit (`ulimit -n`) leaves after ``reservedDescriptors`` for the catalogue's own files. A
/// warning is logged when the limit is reached, at most once a minute.
///
/// ```swift
/// let limit = ConnectionLimit(maximum: ConnectionLimit.effectiveMaximum(requested: 4096), logger: logger)
/// ```
struct ConnectionLimit: AvailableConnectionsDelegate {
    /// Descriptors kept for the catalogue (a reading connection holds three: the database, its
    /// log and its shared memory), the log and the listening socket.
    static let reservedDescriptors = 64
    /// How long after a warning that the limit was reached another may be logged.
    static let warningInterval: Duration = .seconds(60)

    let maximum: Int
    let logger: Logger
    private(set) var openConnections = 0
    private var warnings = WarningInterval(Self.warningInterval)

    init(maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    /// `requested`, lowered to the open-file limit less ``reservedDescriptors`` (at least 1);
    /// `openFileLimit` nil: the process's current soft limit.
    static func effectiveMaximum(requested: Int, openFileLimit: Int? = OpenFileLimit.current) -> Int {
        guard let openFileLimit else { return requested }
        return max(1, min(requested, openFileLimit - reservedDescriptors))
    }

    mutating func connectionOpened() {
        openConnections += 1
        guard openConnections >= maximum else { return }
        guard warnings.allows() else { return }
        logger.warning("connection limit reached: \(maximum) open; new connections wait until one closes")
    }

    mutating func connectionClosed() {
        openConnections -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        openConnections < maximum
    }
}
#endif
