#if Server
/// How often a warning that many events would repeat may be logged: at most once per
/// ``interval`` (the connection limits warn once a minute however many connections they turn
/// away).
///
/// ```swift
/// var warnings = WarningInterval(.seconds(60))
/// if warnings.allows() { logger.warning("connection limit reached") }
/// ```
struct WarningInterval: Sendable {
    let interval: Duration
    private var last: ContinuousClock.Instant?

    init(_ interval: Duration) {
        self.interval = interval
    }

    /// Whether a warning may be logged at `now` (none in the last ``interval``); if so, it
    /// counts as logged.
    mutating func allows(at now: ContinuousClock.Instant = .now) -> Bool {
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
#endif
